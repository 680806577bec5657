/**
 * Reference surface fold: surface.md §3 written out literally, check by check, over plain
 * decoded events. It is an independent oracle for tests (generated logs, the real fold), so it
 * favours being obviously right over being fast: no shared code with src/core, no indexes, no
 * incremental state beyond `nodes`.
 */

/** One applied replace (surface.md §4). */
export interface ReferenceReplacement {
  seq: number;
  start: number;
  end: number;
  shadowedSeqs: number[];
}

/** The first refused event: its position, its own `seq` value (null when absent) and the message. */
export interface ReferenceFoldError {
  index: number;
  seq: unknown;
  message: string;
}

/** Result of {@link referenceFold}: the accepted prefix's nodes and replacements, and the first error. */
export interface ReferenceFoldResult {
  nodes: number[];
  replacements: ReferenceReplacement[];
  error: ReferenceFoldError | null;
}

const ELIGIBLE = ['user/message', 'assistant/message', 'tool/result'];

/**
 * Property read that behaves like JavaScript's `a.b`: it throws V8's TypeError on `null` and
 * `undefined` (surface.md §3.2 engine-level failures) and yields `undefined` for primitives.
 */
function get(value: unknown, key: string | number): unknown {
  return (value as Record<string | number, unknown>)[key];
}

function isNonNegativeSafeInteger(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

/** JSON-deep equality (surface.md §3.2): primitives by `===`, arrays element-wise, objects by own keys. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!jsonEqual(get(a, k), get(b, k))) return false;
  }
  return true;
}

/**
 * The masked payload of §3.2: shallow copies of `data`, `data.message` and `content[0]`, with
 * the first block's `content` set to null. Reads happen in upstream's order (data → message →
 * content → 0), so a missing level throws the same TypeError text.
 */
function masked(event: unknown): unknown {
  const data = get(event, 'data');
  const message = get(data, 'message');
  const content = get(message, 'content');
  const first = get(content, 0);
  return {
    ...(data as object),
    message: { ...(message as object), content: [{ ...(first as object), content: null }] },
  };
}

/** A failed check: carries the exact message. */
class FoldError extends Error {}

/** The provenance checks P1–P6 (§3.1). Throws FoldError on the first failure. */
function checkProvenance(event: unknown, type: unknown, seq: number, shadowed: number[]): void {
  const src = get(event, 'sourceEventSeqs');
  const present = src !== undefined;
  // P1
  if (present && !Array.isArray(src)) {
    throw new FoldError(`sourceEventSeqs on event at seq ${seq} must be an array when present`);
  }
  const list: unknown[] = present ? (src as unknown[]) : [];
  // P2
  if (present && list.length === 0 && type !== 'assistant/message') {
    throw new FoldError('sourceEventSeqs must not be empty except on assistant/message');
  }
  // P3: walk left to right, fail at the first bad element.
  for (const x of list) {
    if (!isNonNegativeSafeInteger(x)) {
      throw new FoldError(`session event "${type}" sourceEventSeqs must densely contain non-negative safe integers`);
    }
  }
  // P4
  if (new Set(list).size < list.length) {
    throw new FoldError('sourceEventSeqs must not contain duplicates');
  }
  // P5: the first element (in array order) that is not earlier.
  for (const x of list as number[]) {
    if (x >= seq) {
      throw new FoldError(`sourceEventSeqs must reference earlier events: ${x} >= current seq ${seq}`);
    }
  }
  // P6
  const missing: number[] = [];
  for (const s of shadowed) if (!list.includes(s)) missing.push(s);
  if (missing.length > 0) {
    throw new FoldError(`surface replace: sourceEventSeqs must include every shadowed surface node; missing ${missing.join(', ')}`);
  }
}

/**
 * Fold `events` (decoded, packed rows already expanded, baseSeq 0) exactly as surface.md §3
 * specifies: C1–C6, R1–R3, P1–P6, T1–T3 in order; stop at the first failing event. Engine-level
 * failures (null events, tool results without `data.message.content`) report the TypeError's
 * message, as upstream running in V8 does.
 */
export function referenceFold(events: unknown[]): ReferenceFoldResult {
  const nodes: number[] = [];
  const replacements: ReferenceReplacement[] = [];

  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    try {
      const seq = get(event, 'seq');
      const expected = i;
      // C1
      if (seq !== expected) {
        throw new FoldError(`session event seq ${seq} is not contiguous; expected ${expected}`);
      }
      const type = get(event, 'type');
      const eligible = ELIGIBLE.includes(type as string);
      const op = get(event, 'surfaceOp');
      const hasOp = op !== undefined;
      const hasSources = get(event, 'sourceEventSeqs') !== undefined;
      if (!eligible) {
        // C2a, C2b
        if (hasOp) throw new FoldError(`session event "${type}" is not surface-eligible and cannot carry surfaceOp`);
        if (hasSources) {
          throw new FoldError(`session event "${type}" is not surface-eligible and cannot carry sourceEventSeqs`);
        }
        continue; // log-only: accepted, no change
      }
      // C3
      if (!hasOp) throw new FoldError(`session event "${type}" is surface-eligible and requires a surfaceOp marker`);
      // C4: append
      if (op === 'append') {
        checkProvenance(event, type, seq, []);
        nodes.push(seq);
        continue;
      }
      // C5
      if (op === null || typeof op !== 'object' || Array.isArray(op)) {
        throw new FoldError(`session event "${type}" carries an invalid surfaceOp`);
      }
      // C6: exactly the own keys op, start, end.
      const keys = Object.keys(op);
      const start = get(op, 'start');
      const end = get(op, 'end');
      const exactKeys = keys.length === 3 && keys.includes('op') && keys.includes('start') && keys.includes('end');
      if (!exactKeys || get(op, 'op') !== 'replace' || !isNonNegativeSafeInteger(start) || !isNonNegativeSafeInteger(end)) {
        throw new FoldError(`session event "${type}" carries an invalid replace surfaceOp`);
      }
      // R1, R2, R3
      const startIdx = nodes.indexOf(start);
      if (startIdx === -1) throw new FoldError(`surface replace: start seq ${start} not found in surface`);
      const endIdx = nodes.indexOf(end);
      if (endIdx === -1) throw new FoldError(`surface replace: end seq ${end} not found in surface`);
      if (startIdx > endIdx) {
        throw new FoldError(`surface replace: start seq ${start} (index ${startIdx}) is after end seq ${end} (index ${endIdx})`);
      }
      const shadowed = nodes.slice(startIdx, endIdx + 1);
      // P
      checkProvenance(event, type, seq, shadowed);
      // T (tool/result replacements only)
      if (type === 'tool/result') {
        // T1
        if (shadowed.length !== 1) {
          throw new FoldError('tool/result surface replacement must rewrite exactly one current node');
        }
        const original = events[shadowed[0]!];
        // T2
        if (get(original, 'type') !== 'tool/result') {
          throw new FoldError('tool/result surface replacement must target a current tool/result');
        }
        // T3
        const a = masked(original);
        const b = masked(event);
        if (!jsonEqual(a, b)) throw new FoldError('tool/result surface replacement may change only content');
      }
      nodes.splice(startIdx, endIdx - startIdx + 1, seq);
      replacements.push({ seq, start, end, shadowedSeqs: shadowed });
    } catch (e) {
      if (!(e instanceof FoldError) && !(e instanceof TypeError)) throw e;
      let seqValue: unknown = null;
      if (event !== null && event !== undefined) {
        const s = get(event, 'seq');
        seqValue = s === undefined ? null : s;
      }
      return { nodes, replacements, error: { index: i, seq: seqValue, message: e.message } };
    }
  }
  return { nodes, replacements, error: null };
}
