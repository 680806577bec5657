/**
 * The engine holds a log to compare with beside the load: its sessions get handles of their
 * own, the load's stay, `compare` answers the core's comparison for the pair, a second
 * `openCompare` replaces the first, and `closeCompare` or a new handle refuses the old ones.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareSessions } from '../../src/core/analysis/compare';
import { openBytes } from '../../src/core/analyze/open';
import { createEngine } from '../../src/worker/engine';

const A = readFileSync(new URL('../fixtures/teaching.jsonl', import.meta.url), 'utf8');
// The same log cut after 40 events: a prefix of known length.
const B = A.split('\n').slice(0, 41).join('\n') + '\n';

describe('engine comparisons', () => {
  it('opens a second log beside the load and compares the pair', async () => {
    const engine = createEngine({ pause: async () => {} });
    const load = await engine.open({ kind: 'text', name: 'a.jsonl', text: A }, () => {});
    const a = load.sessions[0]!.id;
    const other = await engine.openCompare({ kind: 'text', name: 'b.jsonl', text: B });
    const b = other.sessions[0]!.id;
    expect(b).not.toBe(a);
    expect(other.sessions[0]!.events).toBe(40);
    // The load still answers.
    expect((await engine.rows({ session: a, step: 0, filter: { families: [], surfaceOnly: false }, start: 0, count: 1 })).total).toBe(
      load.sessions[0]!.events,
    );
    const got = await engine.compare({ session: a, other: b });
    const [sa, sb] = await Promise.all([A, B].map(async (t) => (await openBytes(new TextEncoder().encode(t), { name: 'x' })).sessions[0]!));
    const expected = compareSessions(sa!, sb!);
    expect(got.commonPrefix).toBe(40);
    expect(got).toMatchObject({ ...expected, accepted: { a: load.sessions[0]!.accepted, b: 40 } });
    expect(got.divergence.b).toBeNull();

    const view = await engine.compareView({ session: a, other: b, step: 40, otherStep: 40 });
    expect(view.rows.every((r) => r.kind === 'same')).toBe(true);
    const end = await engine.compareView({ session: a, other: b, step: load.sessions[0]!.accepted, otherStep: 40 });
    expect(end.rows.some((r) => r.kind === 'a-only' || r.kind === 'changed')).toBe(true);

    // A second comparison replaces the first; closing drops it.
    const again = await engine.openCompare({ kind: 'text', name: 'b2.jsonl', text: B });
    await expect(engine.compare({ session: a, other: b })).rejects.toThrow(`no session ${b} is open`);
    await engine.closeCompare();
    await expect(engine.compare({ session: a, other: again.sessions[0]!.id })).rejects.toThrow('is open');
    expect((await engine.compare({ session: a, other: a })).equal).toBe(true);
  });
});
