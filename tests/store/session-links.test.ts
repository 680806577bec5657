import { describe, expect, it } from 'vitest';
import type { StoreSessionRow } from '../../src/protocol/store-api';
import { familyOf, sessionLinks } from '../../src/store/sessionLinks';
import { buildSessionTree } from '../../src/store/sessionTree';
import { storeRow } from '../support/store-rows';

function row(id: string, over: Partial<StoreSessionRow> = {}): StoreSessionRow {
  const sessionId = `11111111-0000-4000-8000-${id.padStart(12, '0')}`;
  const base = {
    sessionId,
    cwd: '/w',
    projectDir: '--w--',
    fileName: 'session.jsonl.zstd',
    format: 'zstd',
    size: 1,
    createdAt: 1000,
    modifiedAt: 1000,
  } as const;
  return storeRow(id, { ...base, ...over });
}

const parent = row('1', { createdAt: 1000 });
const early = row('2', { parentSession: parent.sessionId, createdAt: 500 });
const child = row('3', { parentSession: parent.sessionId, createdAt: 5000 });
const later = row('4', { parentSession: parent.sessionId, createdAt: 9000 });
const rows = [parent, early, child, later];

describe('links between store sessions', () => {
  it('links the sessions an event names by id, with their relation', () => {
    const raw = `{"type":"tool/result","data":{"text":"started subagent ${child.sessionId}"}}`;
    expect(sessionLinks(rows, parent, raw, JSON.parse(raw))).toEqual([{ row: child, relation: 'child', inferred: false }]);
    const back = `{"type":"user/message","data":{"senderSessionId":"${parent.sessionId}"}}`;
    expect(sessionLinks(rows, child, back, JSON.parse(back))).toEqual([{ row: parent, relation: 'parent', inferred: false }]);
  });

  it("links a parent's subagent tool call to the first child started at or after it", () => {
    const call = { type: 'tool/call', time: 4000, data: { name: 'subagent', callId: 'c', arguments: '{}' } };
    expect(sessionLinks(rows, parent, JSON.stringify(call), call)).toEqual([{ row: child, relation: 'child', inferred: true }]);
    const other = { ...call, data: { ...call.data, name: 'bash' } };
    expect(sessionLinks(rows, parent, JSON.stringify(other), other)).toEqual([]);
    expect(familyOf(rows, parent).children).toEqual([early, child, later]);
    expect(familyOf(rows, child).parent).toBe(parent);
  });

  it('a parent chain that loops is still shown, once', () => {
    const a = row('a', { sessionId: 'A', parentSession: 'B' });
    const b = row('b', { sessionId: 'B', parentSession: 'A' });
    const tree = buildSessionTree([a, b], {}, '', new Set());
    expect(tree.items.filter((item) => item.kind === 'session')).toHaveLength(2);
    expect(tree.count).toBe(2);
  });
});
