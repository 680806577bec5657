/**
 * The property every fuzz case must satisfy:
 *
 * 1. `openBytes` resolves (never throws) within the time budget.
 * 2. Every session with an oracle (see {@link Expect}) agrees with the reference fold over the
 *    plain decoding of the same text: format, header presence, event count, sampled events,
 *    decode-error line, nodes, replacements, and the first surface error (index and message).
 * 3. Time travel: for sampled steps k ≤ accepted, `index.nodesAt(k)` (and the generation, count
 *    and windows) equal the reference fold of the first k events; for every session the index
 *    agrees with the fold at `accepted`.
 * 4. The query layer answers everything the UI asks without throwing, within the budget.
 * 5. For one case in eight, `openStream` over the same bytes in random pieces gives the same
 *    sessions as `openBytes` (how a picked file is read).
 */
import { isDeepStrictEqual } from 'node:util';
import { decompress } from 'fzstd';
import { FAMILIES } from '../../../src/core/analyze/family';
import type { Family } from '../../../src/core/analyze/family';
import { openBytes, openStream } from '../../../src/core/analyze/open';
import type { LoadResult } from '../../../src/core/analyze/open';
import type { SessionAnalysis } from '../../../src/core/analyze/session';
import { familyCounts, finalMessages, severityCounts, typeCounts } from '../../../src/core/analyze/summary';
import { Rng } from '../../../src/core/gen/rng';
import type { NavigateKind } from '../../../src/protocol/protocol';
import { sessionQueries } from '../../../src/worker/query';
import { sessionDiagnostics } from '../../../src/core/analyze/diagnostics';
import { searchNow } from '../../../src/worker/query/search';
import { stepChange } from '../../../src/worker/query/surface';
import { referenceFold } from '../reference-fold';
import type { ReferenceFoldResult } from '../reference-fold';
import type { FuzzCase } from './case';
import type { Expect } from './containers';
import { decodeJsonArray, isStreamJson, naiveDecodeTolerant, textForm } from './oracle';

/** `crash`: something threw; `hang`: over the time budget; `mismatch`: disagrees with the oracle; `prefix`: time travel disagrees. */
export type FailureKind = 'crash' | 'hang' | 'mismatch' | 'prefix';

export interface Failure {
  kind: FailureKind;
  /** Session path, or null for the whole input. */
  session: string | null;
  message: string;
  stack?: string;
}

/** The result of one case. */
export interface Outcome {
  replay: string;
  /** openBytes wall time. */
  openMs: number;
  /** Query-layer wall time. */
  queryMs: number;
  sessions: number;
  /** Sessions compared against the oracle. */
  compared: number;
  failures: Failure[];
}

/** Default time budget per case (openBytes, and separately the query layer). */
export const DEFAULT_BUDGET_MS = 2000;

const dec = new TextDecoder('utf-8', { ignoreBOM: true });

class Mismatch extends Error {}

function same(actual: unknown, expected: unknown, what: string): void {
  if (!isDeepStrictEqual(actual, expected)) {
    const show = (x: unknown): string => {
      const s = JSON.stringify(x) ?? String(x);
      return s.length > 300 ? `${s.slice(0, 300)}…` : s;
    };
    throw new Mismatch(`${what}: got ${show(actual)}, expected ${show(expected)}`);
  }
}

/** The oracle's events for a session, or null when this session has no oracle. */
interface Oracle {
  events: unknown[];
  /** Events the oracle decoded before stopping (prefix expectations compare the first `events.length`). */
  badLine: number | null;
}

function oracleFor(session: SessionAnalysis, expect: Expect): Oracle | null {
  if (expect.kind === 'none') return null;
  if (expect.kind === 'decode-zstd') {
    if (session.decodeError !== null) return null;
    let text: string;
    try {
      text = dec.decode(decompress(expect.bytes));
    } catch {
      return null;
    }
    return oracleFor(session, { kind: 'exact', text, form: 'jsonl' });
  }
  if (expect.kind === 'prefix') {
    if (expect.unlessTorn && session.diagnostics.some((d) => d.rule === 'zstd/torn-frame')) return null;
    if (session.format === 'stream-json') return null;
    const full = naiveDecodeTolerant(expect.text);
    const n = session.log.length;
    if (n > full.events.length) throw new Mismatch(`${n} events decoded, but the undamaged text has only ${full.events.length}`);
    const line = session.decodeError?.line ?? null;
    if (line !== null) {
      same(line, full.badLine, 'decode error line (prefix of the undamaged text)');
      same(n, full.events.length, 'events before the decode error');
    }
    return { events: full.events.slice(0, n), badLine: line };
  }
  if (expect.unlessDamaged && session.decodeError && expect.unlessDamaged.test(session.decodeError.message)) return null;
  const form = expect.form === 'auto' ? textForm(expect.text) : 'jsonl';
  if (form === 'json-array') {
    same(session.format, 'json-array', 'format');
    const events = decodeJsonArray(expect.text);
    let valid: boolean;
    try {
      valid = Array.isArray(JSON.parse(expect.text));
    } catch {
      valid = false;
    }
    same(session.decodeError !== null, !valid, 'decode error present');
    return { events, badLine: null };
  }
  if (session.format === 'json-array') throw new Mismatch('format: got json-array, expected JSONL');
  const stream = isStreamJson(expect.text);
  same(session.format === 'stream-json', stream, 'stream-json format');
  if (stream) return null;
  const plain = naiveDecodeTolerant(expect.text);
  same(session.header !== null, plain.header !== null, 'header present');
  const line = session.decodeError?.line ?? null;
  if (plain.badLine !== null || line !== null) same(line, plain.badLine, 'decode error line');
  return { events: plain.events, badLine: plain.badLine };
}

function reference(events: unknown[]): ReferenceFoldResult | null {
  try {
    return referenceFold(events);
  } catch (error) {
    // The plain oracle itself gave up (e.g. recursion depth): no verdict for this session.
    if (error instanceof RangeError) return null;
    throw error;
  }
}

function compareFold(session: SessionAnalysis, oracle: Oracle, rng: Rng): void {
  const { events } = oracle;
  same(session.log.length, events.length, 'event count');
  const samples = new Set<number>([0, events.length - 1]);
  for (let i = 0; i < 6; i++) samples.add(rng.int(0, events.length - 1));
  for (const i of samples) if (i >= 0 && i < events.length) same(session.log.event(i), events[i], `event ${i}`);
  const ref = reference(events);
  if (!ref) return;
  same(session.fold.nodes, ref.nodes, 'nodes');
  same(session.fold.replacements, ref.replacements, 'replacements');
  same(
    session.fold.error && { index: session.fold.error.index, message: session.fold.error.message },
    ref.error && { index: ref.error.index, message: ref.error.message },
    'first surface error',
  );
}

/** Time travel against the reference fold of each sampled prefix. */
function comparePrefixes(session: SessionAnalysis, events: unknown[], rng: Rng): void {
  const accepted = session.fold.accepted;
  const steps = new Set<number>([0, accepted]);
  for (let i = 0; i < 4; i++) steps.add(rng.int(0, accepted));
  for (const k of steps) {
    const ref = reference(events.slice(0, k));
    if (!ref) continue;
    same(ref.error, null, `reference error within the accepted prefix (step ${k})`);
    same(session.index.nodesAt(k), ref.nodes, `nodesAt(${k})`);
    same(session.index.nodeCountAt(k), ref.nodes.length, `nodeCountAt(${k})`);
    same(session.index.replaceGenerationAt(k), ref.replacements.length, `replaceGenerationAt(${k})`);
    const start = rng.int(0, ref.nodes.length);
    const count = rng.int(0, 50);
    same(session.index.nodeWindowAt(k, start, count), ref.nodes.slice(start, start + count), `nodeWindowAt(${k}, ${start}, ${count})`);
  }
}

/** The index and the fold must agree for every session, oracle or not. */
function checkConsistency(session: SessionAnalysis): void {
  const { fold, index, log } = session;
  same(fold.accepted, fold.error ? fold.error.index : log.length, 'accepted');
  same(index.nodesAt(fold.accepted), fold.nodes, 'nodesAt(accepted) vs fold.nodes');
  same(index.replaceGenerationAt(fold.accepted), fold.replaceGeneration, 'replaceGenerationAt(accepted)');
  same(fold.replacements.length, fold.replaceGeneration, 'replacements vs replaceGeneration');
}

/** Everything the UI asks of a session. Throws whatever the query layer throws. */
function exercise(session: SessionAnalysis, rng: Rng): void {
  const query = sessionQueries(session);
  const accepted = session.fold.accepted;
  const length = session.log.length;
  const step = (): number => (rng.chance(0.3) ? accepted : rng.int(0, accepted));
  const filter = (): { families: Family[]; surfaceOnly: boolean } => ({
    families: rng.chance(0.6) ? [] : [rng.pick(FAMILIES), ...(rng.chance(0.3) ? [rng.pick(FAMILIES)] : [])],
    surfaceOnly: rng.chance(0.3),
  });
  typeCounts(session);
  familyCounts(session);
  finalMessages(session);
  severityCounts(sessionDiagnostics(session));
  for (let i = 0; i < 3; i++) {
    const f = filter();
    const rows = query.rows({ step: step(), filter: f, start: rng.chance(0.2) ? length + 5 : rng.int(0, length), count: rng.int(1, 120) });
    for (const row of rows.rows.slice(0, 3)) query.rowOf({ filter: f, seq: row.seq });
    query.rowOf({ filter: f, seq: session.baseSeq + rng.int(0, length + 2) });
  }
  const seqs: number[] = [session.baseSeq, session.baseSeq + length - 1];
  for (let i = 0; i < 4; i++) seqs.push(session.baseSeq + rng.int(0, Math.max(0, length - 1)));
  if (session.fold.error) seqs.push(session.baseSeq + session.fold.error.index);
  for (const r of session.fold.replacements.slice(0, 3)) seqs.push(r.seq, r.start, r.end);
  for (let i = 0; i < 3; i++) {
    const k = step();
    const surface = query.surface({ step: k, start: rng.chance(0.2) ? 1e6 : rng.int(0, 40), count: rng.int(1, 200) });
    for (const node of surface.nodes.slice(0, 2)) seqs.push(node.seq);
    stepChange(query.query, k);
    query.replacements({ step: k, start: 0, count: 2000 });
    query.brackets({ step: k, lo: rng.int(0, length), hi: rng.chance(0.5) ? 1e9 : rng.int(0, length) });
    for (const kind of ['next-change', 'prev-change', 'next-replace', 'prev-replace'] as NavigateKind[]) query.navigate({ step: k, kind });
  }
  for (const r of session.fold.replacements.slice(0, 3)) query.shadowedBy({ replacement: r.seq });
  query.shadowedBy({ replacement: session.baseSeq + rng.int(0, length) });
  query.diagnostics({ start: 0, count: 100 });
  query.diagnostics({ start: rng.int(0, 50), count: rng.int(1, 10) });
  for (const seq of seqs) {
    const index = seq - session.baseSeq;
    if (index < 0 || index >= length) continue;
    query.detail({ seq, step: step() });
  }
  const needles = ['x', 'tool', String(rng.int(0, length)), 'zz-no-such-text'];
  if (length > 0) {
    const raw = session.log.raw(rng.int(0, length - 1));
    const at = rng.int(0, Math.max(0, raw.length - 8));
    needles.push(raw.slice(at, at + rng.int(1, 8)));
  }
  for (const text of needles) {
    searchNow(query.query, {
      session: 0,
      text,
      filter: filter(),
      fromRow: rng.chance(0.5) ? -1 : rng.int(0, length),
      direction: rng.chance(0.5) ? 1 : -1,
      step: rng.int(0, length),
    });
  }
}

function describe(error: unknown): { message: string; stack?: string } {
  if (error instanceof Error)
    return error.stack ? { message: `${error.name}: ${error.message}`, stack: error.stack } : { message: error.message };
  return { message: String(error) };
}

/** What a load result holds that a streamed read must reproduce. */
function loadShape(result: LoadResult): unknown {
  return {
    bytes: result.bytes,
    findings: result.findings,
    sessions: result.sessions.map((s) => ({
      path: s.path,
      format: s.format,
      events: s.log.length,
      fold: s.fold,
      decodeError: s.decodeError,
      diagnostics: s.diagnostics,
      steps: s.index.steps,
    })),
  };
}

/** Property 5: the same bytes, streamed in random pieces. */
async function compareStreamed(fuzzCase: FuzzCase, whole: LoadResult, rng: Rng): Promise<void> {
  const bytes = fuzzCase.bytes;
  const max = rng.pick([7, 1000, 1 << 16]);
  async function* pieces(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < bytes.length;) {
      const size = rng.int(1, max);
      yield bytes.subarray(at, at + size);
      at += size;
    }
  }
  const { result } = await openStream(
    { sizeHint: rng.chance(0.5) ? bytes.length : null, chunks: pieces() },
    { name: fuzzCase.name, ...fuzzCase.options },
  );
  same(loadShape(result), loadShape(whole), 'openStream vs openBytes');
}

/** Run one case and check every property. Never throws. */
export async function runCase(fuzzCase: FuzzCase, budgetMs = DEFAULT_BUDGET_MS): Promise<Outcome> {
  const failures: Failure[] = [];
  const rng = new Rng(`surface-lens-fuzz-check:${fuzzCase.replay}`);
  const started = performance.now();
  let result: Awaited<ReturnType<typeof openBytes>>;
  try {
    result = await openBytes(fuzzCase.bytes, { name: fuzzCase.name, ...fuzzCase.options });
  } catch (error) {
    failures.push({ kind: 'crash', session: null, ...describe(error) });
    return { replay: fuzzCase.replay, openMs: performance.now() - started, queryMs: 0, sessions: 0, compared: 0, failures };
  }
  const openMs = performance.now() - started;
  if (openMs > budgetMs)
    failures.push({ kind: 'hang', session: null, message: `openBytes took ${openMs.toFixed(0)} ms (budget ${budgetMs} ms)` });

  const paths = result.sessions.map((s) => s.path);
  for (const path of fuzzCase.required) {
    // stream-json sessions are named `path#sessionId`.
    if (!paths.some((p) => p === path || p.startsWith(`${path}#`)))
      failures.push({ kind: 'mismatch', session: path, message: 'expected session missing' });
  }

  let compared = 0;
  let queryMs = 0;
  for (const session of result.sessions) {
    const at = session.path;
    // Time travel is checked against the oracle's events only when they matched the log.
    let oracle: Oracle | null;
    try {
      oracle = oracleFor(session, fuzzCase.expect(at));
      if (oracle) {
        compareFold(session, oracle, rng);
        compared += 1;
      }
    } catch (error) {
      failures.push(
        error instanceof Mismatch
          ? { kind: 'mismatch', session: at, message: error.message }
          : { kind: 'crash', session: at, ...describe(error) },
      );
      oracle = null;
    }
    try {
      checkConsistency(session);
      if (oracle) comparePrefixes(session, oracle.events, rng);
    } catch (error) {
      failures.push(
        error instanceof Mismatch
          ? { kind: 'prefix', session: at, message: error.message }
          : { kind: 'crash', session: at, ...describe(error) },
      );
    }
    const queryStart = performance.now();
    try {
      exercise(session, rng);
    } catch (error) {
      failures.push({ kind: 'crash', session: at, ...describe(error) });
    }
    queryMs += performance.now() - queryStart;
  }
  if (queryMs > budgetMs)
    failures.push({ kind: 'hang', session: null, message: `the query layer took ${queryMs.toFixed(0)} ms (budget ${budgetMs} ms)` });
  if (rng.chance(0.125)) {
    try {
      await compareStreamed(fuzzCase, result, rng);
    } catch (error) {
      failures.push(
        error instanceof Mismatch
          ? { kind: 'mismatch', session: null, message: error.message }
          : { kind: 'crash', session: null, ...describe(error) },
      );
    }
  }
  return { replay: fuzzCase.replay, openMs, queryMs, sessions: result.sessions.length, compared, failures };
}
