/**
 * The analysis pass measures a message only when a size is read (a request, or a replace that
 * cuts into the previous request's messages). Seeded logs of long runs of replaces between
 * requests — past the number and the characters of messages held unmeasured — must give the
 * sizes a plain reading gives: every request's characters and reused characters, and every
 * replace's cut and invalidated tokens, computed here from a surface kept as a plain array.
 */
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../../src/core/analyze/open';
import { estimateTokens } from '../../../src/core/analyze/tokens';
import { deriveEventMessage } from '../../../src/core/fold/manager';
import { foldSurface, jsonEqual } from '../../../src/core/fold/surface';
import { Rng } from '../../../src/core/gen/rng';

type Ev = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const WORDS = ['fold', 'node', 'say "hi"', 'line\nbreak', 'tab\there', 'back\\slash', '日志', '😀', 'ctl\u0001'];

function text(rng: Rng, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(rng.pick<string>(WORDS));
  return out.join(' ');
}

interface Plan {
  seed: number;
  events: number;
  /** Chance that an event is a model request (an assistant message of a new step). */
  requestRate: number;
  /** Chance that an event replaces a range of current nodes. */
  replaceRate: number;
  /** Chance that a message is long (thousands of characters). */
  longRate: number;
  /** Chance that a replace is of nodes further back than the last few. */
  farRate: number;
  /** Nodes a replace shadows at most. */
  maxWidth: number;
}

/** A valid log: user messages, requests (assistant messages, some bearing no message), and replaces. */
function generate(plan: Plan): Ev[] {
  const rng = new Rng(`deferred-sizes-${plan.seed}`);
  const events: Ev[] = [];
  const nodes: number[] = [];
  let step = 0;
  for (let seq = 0; seq < plan.events; seq++) {
    const words = rng.next() < plan.longRate ? 800 + Math.floor(rng.next() * 800) : 1 + Math.floor(rng.next() * 40);
    const content = [{ type: 'text', text: text(rng, words) }];
    const roll = rng.next();
    if (roll < plan.replaceRate && nodes.length > 0) {
      // The last few nodes (runs of replaces at the end), or further back.
      const width = 1 + Math.floor(rng.next() * Math.min(plan.maxWidth, nodes.length));
      const back = rng.next() < plan.farRate ? Math.floor(rng.next() * (nodes.length - width + 1)) : 0;
      const from = nodes.length - width - back;
      const start = nodes[from]!;
      const end = nodes[from + width - 1]!;
      const shadowed = nodes.splice(from, width, seq);
      events.push({
        type: 'user/message',
        seq,
        time: seq,
        data: { role: 'user', content, source: { kind: 'user' } },
        sourceEventSeqs: shadowed,
        surfaceOp: { op: 'replace', start, end },
      });
    } else if (roll < plan.replaceRate + plan.requestRate) {
      step++;
      // An assistant message of a new step is a request; an empty one bears no message.
      const message = { role: 'assistant', content: rng.next() < 0.1 ? [] : content };
      nodes.push(seq);
      events.push({ type: 'assistant/message', seq, time: seq, data: { turn: 1, step, message }, surfaceOp: 'append' });
    } else {
      nodes.push(seq);
      events.push({ type: 'user/message', seq, time: seq, data: { role: 'user', content, source: { kind: 'user' } }, surfaceOp: 'append' });
    }
  }
  return events;
}

const chars = (ms: unknown[]): number => ms.reduce<number>((n, m) => n + JSON.stringify(m).length, 0);

/** Requests and replaces read plainly, from a surface kept as an array of seqs. */
function expected(events: Ev[]) {
  const nodes: number[] = [];
  const view = (): unknown[] => nodes.map((s) => deriveEventMessage(events[s])).filter((m) => m !== null);
  const requests: { seq: number; chars: number; reusedChars: number }[] = [];
  const replaces: { seq: number; cut: number; invalidatedTokens: number }[] = [];
  let prev: unknown[] | null = null;
  let lastStep = 0;
  for (const e of events) {
    if (e.type === 'assistant/message' && e.data.step !== lastStep) {
      lastStep = e.data.step;
      const messages = view();
      let reused = 0;
      if (prev) while (reused < Math.min(prev.length, messages.length) && jsonEqual(prev[reused], messages[reused])) reused++;
      requests.push({ seq: e.seq, chars: chars(messages), reusedChars: chars(messages.slice(0, reused)) });
      prev = messages;
    }
    if (e.surfaceOp === 'append') {
      nodes.push(e.seq);
      continue;
    }
    const from = nodes.indexOf(e.surfaceOp.start);
    const to = nodes.indexOf(e.surfaceOp.end);
    const cut = nodes.slice(0, from).filter((s) => deriveEventMessage(events[s]) !== null).length;
    const before = view();
    const invalidated = prev !== null && cut < prev.length ? Math.max(0, chars(prev) - chars(before.slice(0, cut))) : 0;
    replaces.push({ seq: e.seq, cut, invalidatedTokens: estimateTokens(invalidated) });
    nodes.splice(from, to - from + 1, e.seq);
  }
  return { requests, replaces, nodes };
}

/** Per stretch between two requests: the messages that entered the surface, and their texts' characters. */
function gapsBetweenRequests(events: Ev[]): { messages: number; chars: number }[] {
  const gaps = [{ messages: 0, chars: 0 }];
  let lastStep = 0;
  for (const e of events) {
    if (e.type === 'assistant/message' && e.data.step !== lastStep) {
      lastStep = e.data.step;
      gaps.push({ messages: 0, chars: 0 });
    }
    const message = deriveEventMessage(e) as { content: { text: string }[] } | null;
    if (message === null) continue;
    const gap = gaps[gaps.length - 1]!;
    gap.messages++;
    for (const block of message.content) gap.chars += block.text.length;
  }
  return gaps;
}

const PLANS: Plan[] = [
  // Runs of thousands of replaces between requests: past the 1,024 messages held unmeasured.
  { seed: 1, events: 9000, requestRate: 0.0006, replaceRate: 0.5, longRate: 0, farRate: 0, maxWidth: 1 },
  // Long messages: past the characters held unmeasured after a few hundred of them.
  { seed: 2, events: 4000, requestRate: 0.002, replaceRate: 0.5, longRate: 0.4, farRate: 0, maxWidth: 1 },
  // Requests often, replaces cutting into them.
  { seed: 3, events: 2500, requestRate: 0.1, replaceRate: 0.3, longRate: 0.02, farRate: 0.2, maxWidth: 3 },
  { seed: 4, events: 3000, requestRate: 0.03, replaceRate: 0.5, longRate: 0.05, farRate: 0.2, maxWidth: 3 },
];

describe('message sizes measured when read', () => {
  for (const plan of PLANS) {
    it(`seed ${plan.seed}: requests' and replaces' sizes equal a plain reading`, async () => {
      const events = generate(plan);
      const want = expected(events);
      expect(foldSurface(events).nodes).toEqual(want.nodes);
      const text = events.map((e) => JSON.stringify(e)).join('\n');
      const session = (await openBytes(new TextEncoder().encode(`${text}\n`), { name: 'deferred.jsonl' })).sessions[0]!;
      expect(session.fold.error).toBeNull();
      const analytics = session.analytics!;
      expect(analytics.requests.map((r) => ({ seq: r.seq, chars: r.chars, reusedChars: r.reusedChars }))).toEqual(want.requests);
      expect(analytics.replaces.map((r) => ({ seq: r.seq, cut: r.cut, invalidatedTokens: r.invalidatedTokens }))).toEqual(want.replaces);
      // The log does what it is for: requests, replaces that cut into them (seeds 3 and 4), and (1 and 2)
      // more messages or characters between two requests than are held unmeasured.
      expect(want.requests.length).toBeGreaterThan(3);
      if (plan.farRate > 0) expect(want.replaces.filter((r) => r.invalidatedTokens > 0).length).toBeGreaterThan(0);
      const gaps = gapsBetweenRequests(events);
      if (plan.seed === 1) expect(Math.max(...gaps.map((g) => g.messages))).toBeGreaterThan(1024);
      if (plan.seed === 2) expect(Math.max(...gaps.map((g) => g.chars))).toBeGreaterThan(1 << 20);
    });
  }
});
