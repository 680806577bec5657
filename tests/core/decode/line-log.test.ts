/**
 * `LineLog.rawAndEvent`: the preview and the event a detail needs, from one decode of the row,
 * equal to `rawPreview` and `event` (which decode it once each).
 */
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../../src/core/analyze/open';
import { LineLog } from '../../../src/core/decode/line-log';
import { generateText } from '../../../src/core/gen/generate';

const HEADER = '{"type":"session","version":0,"id":"r","createdAt":0,"delegationDepth":0}';
const user = (seq: number, text: string): string =>
  JSON.stringify({
    type: 'user/message',
    seq,
    time: seq,
    data: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text }] },
    surfaceOp: 'append',
  });

describe('LineLog.rawAndEvent', () => {
  it('equals rawPreview and event, whole or clipped, for plain rows, multi-byte text and packed members', async () => {
    // Multi-byte characters (2, 3 and 4 bytes, a surrogate pair) so a cut can fall inside one.
    const wide = 'é€😀x'.repeat(3000);
    // Then a generated log's events, packed rows among them (their seqs do not follow on: the
    // fold refuses them, the log keeps their rows all the same).
    const generated = generateText({ seed: 2, events: 300 }).split('\n').slice(1).join('\n');
    const text = `${HEADER}\n${user(0, wide)}\n${user(1, 'short')}\n${generated}`;
    const session = (await openBytes(new TextEncoder().encode(text), { name: 'x.jsonl' })).sessions[0]!;
    expect(session.decodeError).toBeNull();
    const log = session.log;
    expect(log).toBeInstanceOf(LineLog);
    const lineLog = log as LineLog;
    const packed = Array.from({ length: log.length }, (_, i) => i).filter((i) => log.origin(i).member > 0);
    expect(packed.length).toBeGreaterThan(0);
    for (const i of [0, 1, packed[0]!, packed.at(-1)!]) {
      for (const max of [0, 1, 5, 17, 100, 4_000, 1 << 20]) {
        const both = lineLog.rawAndEvent(i, max);
        expect(both.raw, `event ${i}, ${max} characters`).toEqual(log.rawPreview(i, max));
        expect(both.event()).toEqual(log.event(i));
      }
    }
  });
});
