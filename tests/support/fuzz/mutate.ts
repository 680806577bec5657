/**
 * Seeded mutators over the logical text of a session log. Each takes the current bytes and an
 * {@link Rng} and returns the mutated bytes and a one-line note (for replay reports), or null
 * when it does not apply to this input (the caller then draws another).
 *
 * Three layers:
 * - bytes: bit flips, special bytes, truncation, deleted and inserted ranges;
 * - lines: deletion, duplication, swaps, moves, injected garbage lines;
 * - fields (spec-guided, on parsed lines): `seq`, `type`, `surfaceOp`, `sourceEventSeqs`,
 *   tool/result `data.message.content[0]`, packed-row fields, `data`, envelope and header keys,
 *   plus forged replacements appended against the log's real surface.
 */
import type { Rng } from '../../../src/core/gen/rng';
import { naiveDecodeTolerant } from './oracle';
import { referenceFold } from '../reference-fold';

/** The result of one mutation. */
export interface Mutated {
  bytes: Uint8Array;
  note: string;
}

/** A named mutator. */
export interface Mutator {
  name: string;
  weight: number;
  apply: (bytes: Uint8Array, rng: Rng) => Mutated | null;
}

type Obj = Record<string, unknown>;

const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { ignoreBOM: true });

function isObj(x: unknown): x is Obj {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// ------------------------------------------------------------------------------------------
// Bytes
// ------------------------------------------------------------------------------------------

const SPECIAL_BYTES = [0x22, 0x7b, 0x7d, 0x5b, 0x5d, 0x0a, 0x5c, 0x00, 0xff, 0xc3, 0x2c, 0x3a, 0x30, 0x20, 0x0d, 0x2d, 0x65];

function randomBytes(rng: Rng, n: number, noLf = false): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    let b = rng.u32() & 0xff;
    if (noLf && b === 0x0a) b = 0x0b;
    out[i] = b;
  }
  return out;
}

const flipBits: Mutator = {
  name: 'flip-bits',
  weight: 5,
  apply(bytes, rng) {
    if (bytes.length === 0) return null;
    const out = bytes.slice();
    const n = rng.int(1, 8);
    const at: number[] = [];
    for (let i = 0; i < n; i++) {
      const p = rng.int(0, out.length - 1);
      out[p] = out[p]! ^ (1 << rng.int(0, 7));
      at.push(p);
    }
    return { bytes: out, note: `flip ${n} bit(s) at ${at.join(',')}` };
  },
};

const setBytes: Mutator = {
  name: 'set-bytes',
  weight: 3,
  apply(bytes, rng) {
    if (bytes.length === 0) return null;
    const out = bytes.slice();
    const n = rng.int(1, 4);
    const at: string[] = [];
    for (let i = 0; i < n; i++) {
      const p = rng.int(0, out.length - 1);
      const b = rng.pick(SPECIAL_BYTES);
      out[p] = b;
      at.push(`${p}=0x${b.toString(16)}`);
    }
    return { bytes: out, note: `set bytes ${at.join(',')}` };
  },
};

const truncate: Mutator = {
  name: 'truncate',
  weight: 4,
  apply(bytes, rng) {
    if (bytes.length === 0) return null;
    const mode = rng.int(0, 2);
    const cut = mode === 0 ? bytes.length - 1 : mode === 1 ? Math.max(0, bytes.length - rng.int(1, 400)) : rng.int(0, bytes.length - 1);
    return { bytes: bytes.slice(0, cut), note: `truncate to ${cut} of ${bytes.length} bytes` };
  },
};

const deleteRange: Mutator = {
  name: 'delete-range',
  weight: 2,
  apply(bytes, rng) {
    if (bytes.length < 2) return null;
    const at = rng.int(0, bytes.length - 1);
    const n = Math.min(bytes.length - at, rng.int(1, 64));
    return { bytes: concat(bytes.subarray(0, at), bytes.subarray(at + n)), note: `delete ${n} bytes at ${at}` };
  },
};

const insertBytes: Mutator = {
  name: 'insert-bytes',
  weight: 2,
  apply(bytes, rng) {
    const at = rng.int(0, bytes.length);
    const ins = randomBytes(rng, rng.int(1, 16));
    return { bytes: concat(bytes.subarray(0, at), ins, bytes.subarray(at)), note: `insert ${ins.length} random bytes at ${at}` };
  },
};

/** Byte-level mutators (usable on any bytes, containers included). */
export const BYTE_MUTATORS: readonly Mutator[] = [flipBits, setBytes, truncate, deleteRange, insertBytes];

// ------------------------------------------------------------------------------------------
// Lines
// ------------------------------------------------------------------------------------------

/** Complete lines (no LF) and the fragment after the last LF. */
interface Lines {
  lines: string[];
  tail: string;
}

function toLines(bytes: Uint8Array): Lines {
  const parts = dec.decode(bytes).split('\n');
  const tail = parts.pop() ?? '';
  return { lines: parts, tail };
}

function fromLines({ lines, tail }: Lines): Uint8Array {
  return enc.encode(lines.length > 0 ? `${lines.join('\n')}\n${tail}` : tail);
}

/** Run `fn` over the lines; it returns a note, or null when not applicable. */
function onLines(bytes: Uint8Array, fn: (doc: Lines) => string | null): Mutated | null {
  const doc = toLines(bytes);
  const note = fn(doc);
  return note === null ? null : { bytes: fromLines(doc), note };
}

const deleteLines: Mutator = {
  name: 'delete-lines',
  weight: 4,
  apply: (bytes, rng) =>
    onLines(bytes, ({ lines }) => {
      if (lines.length === 0) return null;
      const at = rng.chance(0.1) ? 0 : rng.int(0, lines.length - 1);
      const n = rng.chance(0.7) ? 1 : Math.min(lines.length - at, rng.int(2, 20));
      lines.splice(at, n);
      return `delete ${n} line(s) from line ${at + 1}`;
    }),
};

const duplicateLine: Mutator = {
  name: 'duplicate-line',
  weight: 3,
  apply: (bytes, rng) =>
    onLines(bytes, ({ lines }) => {
      if (lines.length === 0) return null;
      const from = rng.int(0, lines.length - 1);
      const to = rng.chance(0.6) ? from + 1 : rng.int(0, lines.length);
      lines.splice(to, 0, lines[from] as string);
      return `duplicate line ${from + 1} at line ${to + 1}`;
    }),
};

const swapLines: Mutator = {
  name: 'swap-lines',
  weight: 3,
  apply: (bytes, rng) =>
    onLines(bytes, ({ lines }) => {
      if (lines.length < 2) return null;
      const a = rng.int(0, lines.length - 2);
      const b = rng.chance(0.6) ? a + 1 : rng.int(0, lines.length - 1);
      if (a === b) return null;
      const t = lines[a] as string;
      lines[a] = lines[b] as string;
      lines[b] = t;
      return `swap lines ${a + 1} and ${b + 1}`;
    }),
};

const moveLine: Mutator = {
  name: 'move-line',
  weight: 2,
  apply: (bytes, rng) =>
    onLines(bytes, ({ lines }) => {
      if (lines.length < 2) return null;
      const from = rng.int(0, lines.length - 1);
      const [line] = lines.splice(from, 1);
      const to = rng.int(0, lines.length);
      lines.splice(to, 0, line as string);
      return `move line ${from + 1} to line ${to + 1}`;
    }),
};

function nested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** A garbage line (as bytes, never containing LF) and its description. */
function garbageLine(rng: Rng, lines: readonly string[]): { bytes: Uint8Array; what: string } {
  const text = (s: string, what: string): { bytes: Uint8Array; what: string } => ({ bytes: enc.encode(s), what });
  const kind = rng.int(0, 17);
  switch (kind) {
    case 0:
      return { bytes: randomBytes(rng, rng.int(1, 200), true), what: 'random bytes' };
    case 1:
      return text('{"not json', 'truncated JSON');
    case 2:
      return text(rng.pick(['{', '}', ']', ',', '"', '\\']), 'one delimiter');
    case 3:
      return text(rng.pick(['null', '42', '-0', '"str"', 'true', '1e400']), 'a scalar');
    case 4:
      return text(rng.pick(['[]', '[null]', '[1,2,3]', '{}', '[{}]', '[[]]']), 'an empty or odd container');
    case 5:
      return text(rng.pick(['   ', '\t', '\r', ' \r', '\t \t']), 'a whitespace-only line');
    case 6:
      return text(
        `{"type":"user/message","seq":${rng.int(0, 50)},"time":0,"data":{"id":"g","role":"user","content":[{"type":"text","text":"${'x'.repeat(rng.int(1000, 60_000))}"}],"source":{"kind":"user"}},"surfaceOp":"append"}`,
        'a long event line',
      );
    case 7:
      return text(
        `{"type":"tool/result","seq":${rng.int(0, 50)},"time":0,"data":{"message":{"content":[{"type":"tool-result","content":${nested(rng.int(10, 3000))}}]}},"surfaceOp":"append"}`,
        'a deeply nested event',
      );
    case 8:
      return text('{"type":"session","version":0,"id":"g","createdAt":0,"delegationDepth":0}', 'a header line');
    case 9:
      return text(
        `{"type":"session_event","sessionId":"s","event":{"type":"turn/start","seq":${rng.int(0, 20)},"time":0,"data":{"turn":1}}}`,
        'a stream-json envelope',
      );
    case 10:
      return text('{"type":"result","sessionId":"s","output":"x"}', 'a stream-json result');
    case 11: {
      if (lines.length < 2) return text('[]', 'an empty array');
      const a = rng.int(0, lines.length - 1);
      const b = rng.int(0, lines.length - 1);
      return text(`[${lines[a]},${lines[b]}]`, `an array of lines ${a + 1} and ${b + 1}`);
    }
    case 12:
      return { bytes: Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), what: 'invalid UTF-8 inside JSON' };
    case 13:
      return text('{"type":"user/message","seq":0,"time":0,"data":{"text":"\\ud800"},"surfaceOp":"append"}', 'a lone surrogate escape');
    case 14:
      return text(`\ufeff${lines[rng.int(0, Math.max(0, lines.length - 1))] ?? '{}'}`, 'a BOM-prefixed line');
    case 15:
      return text(
        '{"type":"text-chunks","seq0":0,"time0":0,"data":{"turn":1,"step":1,"index":0,"dt":[],"texts":["a"]}}',
        'a one-member packed row',
      );
    case 16:
      return text('{"type":"turn/end","seq":-1,"time":0,"data":{"turn":1,"reason":{"kind":"completed"}}}', 'a turn/end with seq -1');
    default:
      return { bytes: new Uint8Array(rng.int(1, 32)), what: 'NUL bytes' };
  }
}

const injectGarbage: Mutator = {
  name: 'inject-garbage',
  weight: 5,
  apply(bytes, rng) {
    const doc = toLines(bytes);
    const at = rng.chance(0.08) ? 0 : rng.int(0, doc.lines.length);
    const g = garbageLine(rng, doc.lines);
    // Insert at a line boundary, as bytes (so random bytes stay exactly as drawn).
    const head = fromLines({ lines: doc.lines.slice(0, at), tail: '' });
    const rest = fromLines({ lines: doc.lines.slice(at), tail: doc.tail });
    return { bytes: concat(head, g.bytes, Uint8Array.of(0x0a), rest), note: `inject ${g.what} at line ${at + 1}` };
  },
};

/** Line-level mutators. */
export const LINE_MUTATORS: readonly Mutator[] = [deleteLines, duplicateLine, swapLines, moveLine, injectGarbage];

// ------------------------------------------------------------------------------------------
// Fields
// ------------------------------------------------------------------------------------------

/** A raw JSON token written in place of a placeholder (numbers JSON.stringify cannot produce). */
const RAW = '\u0000raw:';

function rawToken(token: string): string {
  return `${RAW}${token}`;
}

function stringify(value: unknown): string {
  const s = JSON.stringify(value);
  if (!s.includes(RAW.replace('\u0000', '\\u0000'))) return s;
  return s.replace(/"\\u0000raw:([^"]*)"/g, '$1');
}

/** Chooses the candidate lines (indices) for a field mutation. */
type Select = (rng: Rng, lines: readonly string[]) => number[];

/** The complete lines containing any of `needles` (all lines when none are given). */
function containing(...needles: string[]): Select {
  return (_rng, lines) => {
    const out: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (needles.length === 0 || needles.some((n) => line.includes(n))) out.push(i);
    }
    return out;
  };
}

/** Pick one candidate that parses to an object (passing `filter`). */
function pickLine(rng: Rng, lines: readonly string[], select: Select, filter?: (v: Obj) => boolean): { at: number; value: Obj } | null {
  const candidates = select(rng, lines);
  for (let tries = 0; tries < 6 && candidates.length > 0; tries++) {
    const k = rng.int(0, candidates.length - 1);
    const at = candidates[k]!;
    let value: unknown;
    try {
      value = JSON.parse(lines[at] as string);
    } catch {
      candidates.splice(k, 1);
      continue;
    }
    if (isObj(value) && (!filter || filter(value))) return { at, value };
    candidates.splice(k, 1);
  }
  return null;
}

/** Field mutation on one line: `fn` edits the parsed object and returns a note (or null). */
function fieldMutator(
  name: string,
  weight: number,
  select: Select,
  fn: (value: Obj, rng: Rng, ctx: { lines: string[]; at: number }) => string | null,
  filter?: (v: Obj) => boolean,
): Mutator {
  return {
    name,
    weight,
    apply: (bytes, rng) =>
      onLines(bytes, ({ lines }) => {
        const picked = pickLine(rng, lines, select, filter);
        if (!picked) return null;
        const note = fn(picked.value, rng, { lines, at: picked.at });
        if (note === null) return null;
        lines[picked.at] = stringify(picked.value);
        return `line ${picked.at + 1}: ${note}`;
      }),
  };
}

const ELIGIBLE = ['"type":"user/message"', '"type":"assistant/message"', '"type":"tool/result"'];

/** Mostly surface-eligible events (where the P and R rules are reached), sometimes any event. */
const mostlyEligible: Select = (rng, lines) => (rng.chance(0.75) ? containing(...ELIGIBLE) : containing('"type":'))(rng, lines);

/**
 * tool/result lines: replacements (T rules) half of the time, the originals they replace a
 * quarter (T3 reads the original's payload), any tool/result otherwise.
 */
const toolResults: Select = (rng, lines) => {
  const all = containing('"type":"tool/result"')(rng, lines);
  const replacements = all.filter((i) => (lines[i] as string).includes('"op":"replace"'));
  const roll = rng.next();
  if (roll < 0.5 && replacements.length > 0) return replacements;
  if (roll < 0.75 && replacements.length > 0) {
    const starts = new Set<string>();
    for (const i of replacements) {
      const m = /"start":(\d+)/.exec(lines[i] as string);
      if (m) starts.add(`"seq":${m[1]},`);
    }
    const originals = all.filter((i) => [...starts].some((s) => (lines[i] as string).includes(s)));
    if (originals.length > 0) return originals;
  }
  return all;
};

/** Seqs of surface events in the lines before `at` (nearest first, up to `limit` lines back), ascending. */
function earlierSurfaceSeqs(lines: readonly string[], at: number, limit = 400): number[] {
  const out: number[] = [];
  for (let j = at - 1; j >= 0 && j >= at - limit; j--) {
    const line = lines[j] as string;
    if (!line.includes('"surfaceOp"')) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (isObj(v) && typeof v.seq === 'number') out.push(v.seq);
    } catch {
      // not a line we can read: skip
    }
  }
  return out.reverse();
}

function seqOf(v: Obj): number {
  return typeof v.seq === 'number' && Number.isFinite(v.seq) ? v.seq : 0;
}

const mutateSeq = fieldMutator('field-seq', 5, containing('"seq":'), (v, rng) => {
  const seq = seqOf(v);
  const choice = rng.int(0, 13);
  const set = (x: unknown, what: string): string => {
    v.seq = x;
    return `seq ${seq} -> ${what}`;
  };
  switch (choice) {
    case 0:
      return set(seq + 1, String(seq + 1));
    case 1:
      return set(seq - 1, String(seq - 1));
    case 2: {
      const n = seq + rng.int(2, 40) * (rng.chance(0.5) ? 1 : -1);
      return set(n, String(n));
    }
    case 3:
      return set(-1, '-1');
    case 4:
      return set(String(seq), `"${seq}"`);
    case 5:
      return set(seq + 0.5, String(seq + 0.5));
    case 6:
      return set(null, 'null');
    case 7:
      delete v.seq;
      return `seq ${seq} removed`;
    case 8:
      return set(2 ** 53, '2^53');
    case 9:
      return set(rawToken(`${seq}.0`), `${seq}.0 (raw)`);
    case 10:
      return set(rawToken(`${seq}e0`), `${seq}e0 (raw)`);
    case 11:
      return set(rawToken('-0'), '-0 (raw)');
    case 12:
      return set(rawToken('1e400'), '1e400 (raw)');
    default:
      return set(0, '0');
  }
});

const TYPE_POOL: readonly unknown[] = [
  'user/message',
  'assistant/message',
  'tool/result',
  'assistant/chunk',
  'turn/start',
  'turn/end',
  'step/start',
  'step/end',
  'tool/call',
  'compaction/start',
  'compaction/summary',
  'compaction/end',
  'compaction/prune',
  'steering/message',
  'request/header-delta',
  'request/header',
  'mode/set',
  'session/end-seed',
  'session',
  'session_event',
  'text-chunks',
  'reasoning-chunks',
  'tool-call-chunks',
  'future/thing',
  '',
  'User/Message',
  42,
  null,
  ['user/message'],
  { type: 'user/message' },
];

const mutateType = fieldMutator('field-type', 4, containing('"type":'), (v, rng) => {
  const before = JSON.stringify(v.type);
  if (rng.chance(0.1)) {
    delete v.type;
    return `type ${before} removed`;
  }
  const next = rng.pick(TYPE_POOL);
  v.type = next;
  return `type ${before} -> ${JSON.stringify(next)}`;
});

function replaceOp(rng: Rng, seqs: readonly number[], seq: number): { op: Obj; start: number; end: number } {
  const pool = seqs.length > 0 ? seqs : [Math.max(0, seq - 1)];
  let a = rng.int(0, pool.length - 1);
  let b = rng.chance(0.5) ? a : rng.int(0, pool.length - 1);
  if (rng.chance(0.6) && a > b) [a, b] = [b, a];
  const start = pool[a]!;
  const end = pool[b]!;
  return { op: { op: 'replace', start, end }, start, end };
}

const mutateSurfaceOp = fieldMutator('field-surfaceOp', 9, mostlyEligible, (v, rng, { lines, at }) => {
  const seq = seqOf(v);
  const before = JSON.stringify(v.surfaceOp);
  const seqs = earlierSurfaceSeqs(lines, at);
  const choice = rng.int(0, 6);
  if (choice === 0) {
    delete v.surfaceOp;
    return `surfaceOp ${before} removed`;
  }
  if (choice === 1) {
    v.surfaceOp = 'append';
    return `surfaceOp ${before} -> "append"`;
  }
  if (choice <= 3) {
    const { op, start, end } = replaceOp(rng, seqs, seq);
    v.surfaceOp = op;
    let note = `surfaceOp ${before} -> replace ${start}..${end}`;
    if (rng.chance(0.6)) {
      // Cite the shadowed range (as far as the nearby lines tell), so P6 may pass.
      const cited = seqs.filter((s) => s >= Math.min(start, end) && s <= Math.max(start, end));
      v.sourceEventSeqs = rng.chance(0.8) ? cited : cited.slice(1);
      note += ` citing [${(v.sourceEventSeqs as number[]).join(',')}]`;
    }
    return note;
  }
  const s = seqs.length > 0 ? rng.pick(seqs) : 0;
  const shapes: readonly [unknown, string][] = [
    ['Append', '"Append"'],
    ['replace', '"replace"'],
    ['', '""'],
    [null, 'null'],
    [0, '0'],
    [true, 'true'],
    [[], '[]'],
    [{}, '{}'],
    [{ op: 'replace' }, '{op}'],
    [{ op: 'replace', start: s, end: s, extra: 1 }, 'extra key'],
    [{ op: 'Replace', start: s, end: s }, 'op "Replace"'],
    [{ op: 'replace', start: String(s), end: s }, 'string start'],
    [{ op: 'replace', start: -1, end: s }, 'start -1'],
    [{ op: 'replace', start: s + 0.5, end: s }, 'fractional start'],
    [{ end: s, start: s, op: 'replace' }, 'keys in another order'],
    [{ op: 'replace', start: s, end: rawToken('-0') }, 'end -0 (raw)'],
    [{ op: 'replace', start: s, end: 2 ** 53 }, 'end 2^53'],
    [['replace', s, s], 'an array'],
  ];
  const [shape, what] = rng.pick(shapes);
  v.surfaceOp = shape;
  return `surfaceOp ${before} -> ${what}`;
});

const mutateSources = fieldMutator('field-sourceEventSeqs', 8, mostlyEligible, (v, rng, { lines, at }) => {
  const seq = seqOf(v);
  const before = JSON.stringify(v.sourceEventSeqs);
  const list = Array.isArray(v.sourceEventSeqs) ? [...(v.sourceEventSeqs as unknown[])] : [];
  const earlier = earlierSurfaceSeqs(lines, at, 60);
  const choice = rng.int(0, 12);
  switch (choice) {
    case 0:
      if (list.length === 0) return null;
      list.splice(rng.int(0, list.length - 1), 1);
      break;
    case 1:
      if (list.length === 0) list.push(Math.max(0, seq - 1));
      list.splice(rng.int(0, list.length), 0, rng.pick(list));
      break;
    case 2:
      list.push(seq + rng.int(0, 3));
      break;
    case 3:
    case 12:
      list.splice(rng.int(0, list.length), 0, rng.pick([1.5, '3', null, -1, 2 ** 53, rawToken('-0'), rawToken('1e400'), [1], {}]));
      break;
    case 4:
      v.sourceEventSeqs = [];
      return `sourceEventSeqs ${before} -> []`;
    case 5: {
      const shape = rng.pick([{}, 3, 'x', null, true]);
      v.sourceEventSeqs = shape;
      return `sourceEventSeqs ${before} -> ${JSON.stringify(shape)}`;
    }
    case 6:
      delete v.sourceEventSeqs;
      return `sourceEventSeqs ${before} removed`;
    case 7:
      list.reverse();
      break;
    case 8:
      list.push(earlier.length > 0 ? rng.pick(earlier) : Math.max(0, seq - rng.int(1, 10)));
      break;
    case 9:
      list.unshift(0);
      break;
    case 10:
      for (let i = 0; i < rng.int(30, 200); i++) list.push(rng.int(0, Math.max(0, seq - 1)));
      break;
    default:
      list.sort((a, b) => Number(b) - Number(a));
      break;
  }
  v.sourceEventSeqs = list;
  const shown = JSON.stringify(list);
  return `sourceEventSeqs ${before} -> ${shown.length > 80 ? `${shown.slice(0, 80)}…` : shown}`;
});

function firstBlock(v: Obj): { message: Obj | null; content: unknown; block: Obj | null } {
  const data = isObj(v.data) ? v.data : null;
  const message = data && isObj(data.message) ? data.message : null;
  const content = message ? message.content : undefined;
  const block = Array.isArray(content) && isObj(content[0]) ? content[0] : null;
  return { message, content, block };
}

const mutateToolResult = fieldMutator('field-tool-result', 8, toolResults, (v, rng) => {
  const { message, content, block } = firstBlock(v);
  const data = v.data as Obj | null | undefined;
  const choice = rng.int(0, 15);
  switch (choice) {
    case 0:
    case 1:
      if (!block) return null;
      block.content = rng.pick([
        [{ type: 'text', text: `pruned ${rng.alnum(6)}` }],
        'text',
        null,
        [],
        block.content === undefined ? 1 : [block.content, block.content],
      ]);
      return 'content[0].content changed';
    case 2:
      if (!block) return null;
      block.toolCallId = `call_${rng.alnum(8)}`;
      return 'content[0].toolCallId changed';
    case 3:
      if (!block) return null;
      block.isError = !block.isError;
      return 'content[0].isError flipped';
    case 4:
      if (!block) return null;
      block.type = rng.pick(['text', 'tool-result ', 'image', 7]);
      return 'content[0].type changed';
    case 5:
      if (!block) return null;
      block[rng.pick(['extra', 'meta', 'content '])] = rng.pick([1, null, 'x', {}]);
      return 'content[0] gained a key';
    case 6: {
      if (!block) return null;
      const keys = Object.keys(block);
      if (keys.length === 0) return null;
      const key = rng.pick(keys);
      delete block[key];
      return `content[0].${key} removed`;
    }
    case 7:
      if (!Array.isArray(content)) return null;
      content[0] = rng.pick([null, 'str', 3, []]);
      return 'content[0] replaced by a non-object';
    case 8:
      if (!message) return null;
      message.content = rng.pick([[], {}, null, 'x', [[]]]);
      return 'message.content replaced';
    case 9:
      if (!isObj(data)) return null;
      delete data.message;
      return 'data.message removed';
    case 10:
      if (!isObj(data)) return null;
      data.message = null;
      return 'data.message = null';
    case 11:
      v.data = rng.pick([null, [], 'x']);
      return 'data replaced by a non-object';
    case 12:
      if (!message) return null;
      message.id = `m_${rng.alnum(5)}`;
      return 'message.id changed';
    case 13:
      if (!isObj(data)) return null;
      data.meta = { truncated: rng.chance(0.5), bytes: rng.int(0, 9999) };
      return 'data.meta changed';
    case 14:
      if (!Array.isArray(content)) return null;
      content.push({ type: 'text', text: 'more' });
      return 'a second content block';
    default:
      if (!message) return null;
      message.source = { kind: 'tool', callId: `c_${rng.alnum(4)}` };
      return 'message.source changed';
  }
});

const mutatePacked = fieldMutator('field-packed-row', 6, containing('"seq0"'), (v, rng) => {
  const data = isObj(v.data) ? v.data : null;
  const payloadKey = data && 'args' in data ? 'args' : 'texts';
  const payload = data && Array.isArray(data[payloadKey]) ? (data[payloadKey] as unknown[]) : null;
  const dt = data && Array.isArray(data.dt) ? (data.dt as unknown[]) : null;
  const seq0 = typeof v.seq0 === 'number' ? v.seq0 : 0;
  const choice = rng.int(0, 19);
  switch (choice) {
    case 0:
      v.seq0 = seq0 + rng.pick([1, -1, 2, 5]);
      return `seq0 ${seq0} -> ${String(v.seq0)}`;
    case 1:
      v.seq0 = rng.pick([-1, '0', 1.5, null, 2 ** 53 - 1, 2 ** 53 - 2]);
      return `seq0 -> ${JSON.stringify(v.seq0)}`;
    case 2:
      v.time0 = rng.pick([1.5, null, '0', 2 ** 53, rawToken('-0')]);
      return 'time0 changed';
    case 3:
      if (!dt || dt.length === 0) return null;
      dt.pop();
      return 'dt lost a member';
    case 4:
      if (!dt) return null;
      dt.push(rng.int(-5, 50));
      return 'dt gained a member';
    case 5:
      if (!dt || dt.length === 0) return null;
      dt[rng.int(0, dt.length - 1)] = rng.pick([1.5, '1', null, 2 ** 53, -(2 ** 53)]);
      return 'dt member changed';
    case 6:
      if (!data) return null;
      data.dt = rng.pick([{}, null, 'x', 0]);
      return 'dt not an array';
    case 7:
      if (!data) return null;
      data[payloadKey] = [];
      return `${payloadKey} emptied`;
    case 8:
      if (!payload || payload.length === 0) return null;
      payload[rng.int(0, payload.length - 1)] = rng.pick([1, null, ['a'], {}]);
      return `${payloadKey} member not a string`;
    case 9:
      if (!data) return null;
      data[payloadKey] = rng.pick(['abc', null, {}]);
      return `${payloadKey} not an array`;
    case 10:
      if (!payload) return null;
      payload.push('extra');
      if (dt) dt.push(0);
      return `${payloadKey} and dt gained a member (consistent)`;
    case 11:
      v[rng.pick(['extra', 'seq', 'surfaceOp'])] = rng.pick([0, 'append', null]);
      return 'envelope gained a key';
    case 12:
      if (!data) return null;
      data[rng.pick(['extra', 'chunk', 'name'])] = rng.pick([0, 'x', null]);
      return 'data gained a key';
    case 13:
      v.data = rng.pick([null, [], 'x', 3]);
      return 'data not an object';
    case 14:
      if (!data) return null;
      data.id = rng.pick([1, null, 'call_x']);
      return 'id changed';
    case 15:
      if (!data) return null;
      if ('name' in data) delete data.name;
      else data.name = rng.pick([1, 'tool']);
      return 'name toggled';
    case 16:
      v.type = rng.pick(['text-chunks', 'reasoning-chunks', 'tool-call-chunks']);
      return `row type -> ${String(v.type)}`;
    case 17:
      if (!data) return null;
      data[rng.pick(['turn', 'step', 'index'])] = rng.pick(['1', null, 1.5, -1]);
      return 'turn/step/index changed';
    case 18:
      delete v.time0;
      return 'time0 removed';
    default:
      if (!payload || payload.length < 2) return null;
      payload.splice(1, payload.length - 1);
      if (dt) dt.splice(0, dt.length);
      return `${payloadKey} cut to one member`;
  }
});

const mutateData = fieldMutator('field-data', 3, mostlyEligible, (v, rng) => {
  const data = v.data;
  const choice = rng.int(0, 6);
  if (choice === 0) {
    delete v.data;
    return 'data removed';
  }
  if (choice === 1) {
    v.data = rng.pick([null, [], 'x', 0]);
    return `data -> ${JSON.stringify(v.data)}`;
  }
  if (!isObj(data)) return null;
  if (choice === 2) {
    data.message = rng.pick([null, 'x', [], {}]);
    return `data.message -> ${JSON.stringify(data.message)}`;
  }
  if (choice === 3) {
    delete data.message;
    return 'data.message removed';
  }
  const message = isObj(data.message) ? data.message : null;
  if (choice === 4 && message) {
    message.content = rng.pick([null, [], {}, 'x', [null]]);
    return `data.message.content -> ${JSON.stringify(message.content)}`;
  }
  if (choice === 5) {
    data.content = rng.pick([null, [], [{ type: 'text', text: 'x' }]]);
    return 'data.content changed';
  }
  data.turn = rng.pick([0, -1, '1', null, 1.5]);
  return `data.turn -> ${JSON.stringify(data.turn)}`;
});

const mutateEnvelope = fieldMutator('field-envelope', 3, containing('"type":'), (v, rng) => {
  const choice = rng.int(0, 6);
  switch (choice) {
    case 0:
      v.ignorable = rng.pick([true, false, 'yes', 1]);
      return `ignorable -> ${JSON.stringify(v.ignorable)}`;
    case 1:
      v[rng.pick(['extra', 'Seq', 'meta'])] = 1;
      return 'an extra envelope key';
    case 2:
      delete v.time;
      return 'time removed';
    case 3:
      v.time = rng.pick([1.5, null, '0', rawToken('-0'), rawToken('1e400'), rawToken('12345678901234567890')]);
      return 'time changed';
    case 4:
      delete v.ignorable;
      v.ignorable = true;
      return 'ignorable: true';
    default:
      v.time = rng.int(-1e6, 1e6);
      return 'time changed';
  }
});

/** fieldMutator writes `stringify(value)`; this one needs a raw edit of the line text. */
const protoKey: Mutator = {
  name: 'field-proto-key',
  weight: 1,
  apply: (bytes, rng) =>
    onLines(bytes, ({ lines }) => {
      const picked = pickLine(rng, lines, containing('"surfaceOp":{', '"type":'));
      if (!picked) return null;
      const line = lines[picked.at] as string;
      const inOp = line.includes('"surfaceOp":{') && rng.chance(0.6);
      lines[picked.at] = inOp
        ? line.replace('"surfaceOp":{', '"surfaceOp":{"__proto__":{"op":"replace"},')
        : `{"__proto__":{"surfaceOp":"append"},${line.slice(1)}`;
      return `line ${picked.at + 1}: own "__proto__" key ${inOp ? 'in surfaceOp' : 'in the envelope'}`;
    }),
};

const mutateHeader = fieldMutator(
  'field-header',
  2,
  containing('"type":"session"'),
  (v, rng) => {
    const choice = rng.int(0, 8);
    switch (choice) {
      case 0:
        v.version = rng.pick([1, -1, '0', null, 0.5]);
        return `header version -> ${JSON.stringify(v.version)}`;
      case 1:
        delete v.version;
        return 'header version removed';
      case 2:
        v.id = rng.pick([42, null, '', 'x"y']);
        return 'header id changed';
      case 3:
        v.createdAt = rng.pick([rawToken('-0'), 'x', -1, 1.5]);
        return 'header createdAt changed';
      case 4:
        delete v.delegationDepth;
        return 'header delegationDepth removed';
      case 5:
        v.origin = rng.pick(['x', 'subagent', null]);
        return 'header origin changed';
      case 6:
        v[rng.pick(['sandboxMode', 'approvalPolicy'])] = 'x';
        return 'header gained a retired key';
      case 7:
        v.type = rng.pick(['Session', 'session_event', 'user/message']);
        return `header type -> ${String(v.type)}`;
      default:
        v.seq = 0;
        return 'header gained seq 0';
    }
  },
  (v) => v.type === 'session',
);

// ------------------------------------------------------------------------------------------
// Forged replacements (against the real surface of the current text)
// ------------------------------------------------------------------------------------------

/** The events and the surface after the accepted prefix of the current text. */
function surfaceOf(bytes: Uint8Array): { events: unknown[]; nodes: number[]; next: number; clean: boolean } | null {
  const decoded = naiveDecodeTolerant(dec.decode(bytes));
  let fold;
  try {
    fold = referenceFold(decoded.events);
  } catch {
    return null;
  }
  return { events: decoded.events, nodes: fold.nodes, next: decoded.events.length, clean: fold.error === null && decoded.badLine === null };
}

function appendLine(bytes: Uint8Array, line: string): Uint8Array {
  const doc = toLines(bytes);
  doc.lines.push(line);
  return fromLines(doc);
}

const forgeCheckpoint: Mutator = {
  name: 'forge-replace',
  weight: 4,
  apply(bytes, rng) {
    const s = surfaceOf(bytes);
    if (!s || s.nodes.length === 0) return null;
    let i = rng.int(0, s.nodes.length - 1);
    let j = rng.chance(0.3) ? i : rng.int(i, Math.min(s.nodes.length - 1, i + rng.int(0, 40)));
    const flaw = rng.weighted<string>([
      ['none', 6],
      ['swap', 2],
      ['missing-source', 1],
      ['future-source', 1],
      ['stale-start', 1],
      ['wrong-seq', 1],
    ]);
    if (flaw === 'swap' && i < j) [i, j] = [j, i];
    const start = s.nodes[i]!;
    const end = s.nodes[j]!;
    const shadowed = s.nodes.slice(Math.min(i, j), Math.max(i, j) + 1);
    const sources = [...shadowed];
    if (flaw === 'missing-source' && sources.length > 0) sources.splice(rng.int(0, sources.length - 1), 1);
    if (flaw === 'future-source') sources.push(s.next);
    const type = rng.pick(['user/message', 'assistant/message']);
    const event: Obj = {
      type,
      seq: flaw === 'wrong-seq' ? s.next + 1 : s.next,
      time: 0,
      data:
        type === 'user/message'
          ? {
              id: `forged-${rng.alnum(6)}`,
              role: 'user',
              content: [{ type: 'text', text: 'summary' }],
              source: { kind: 'plugin', plugin: 'compact' },
            }
          : {
              turn: 1,
              step: 1,
              message: { id: `forged-${rng.alnum(6)}`, role: 'assistant', content: [{ type: 'text', text: 'summary' }] },
            },
      sourceEventSeqs: sources,
      surfaceOp: { op: 'replace', start: flaw === 'stale-start' ? Math.max(0, start - 1) : start, end },
    };
    return {
      bytes: appendLine(bytes, JSON.stringify(event)),
      note: `append a ${type} replacing ${start}..${end} at seq ${String(event.seq)} (flaw: ${flaw})`,
    };
  },
};

const forgeToolReplace: Mutator = {
  name: 'forge-tool-replace',
  weight: 4,
  apply(bytes, rng) {
    const s = surfaceOf(bytes);
    if (!s || s.nodes.length === 0) return null;
    const tools = s.nodes.filter((seq) => isObj(s.events[seq]) && s.events[seq].type === 'tool/result');
    const flaw = rng.weighted<string>([
      ['none', 5],
      ['changes-meta', 1],
      ['two-nodes', 1],
      ['not-a-tool-result', 1],
      ['changes-call-id', 1],
      ['no-sources', 1],
    ]);
    let target: number;
    if (flaw === 'not-a-tool-result' || tools.length === 0) target = rng.pick(s.nodes);
    else target = rng.pick(tools);
    const original = s.events[target];
    if (!isObj(original)) return null;
    const copy = JSON.parse(JSON.stringify(original)) as Obj;
    copy.type = 'tool/result';
    copy.seq = s.next;
    const idx = s.nodes.indexOf(target);
    const end = flaw === 'two-nodes' && idx + 1 < s.nodes.length ? s.nodes[idx + 1]! : target;
    copy.surfaceOp = { op: 'replace', start: target, end };
    copy.sourceEventSeqs = flaw === 'no-sources' ? [] : end === target ? [target] : [target, end];
    const { block } = firstBlock(copy);
    if (block) {
      block.content = [{ type: 'text', text: `[pruned ${rng.alnum(4)}]` }];
      if (flaw === 'changes-call-id') block.toolCallId = 'other';
    }
    if (flaw === 'changes-meta' && isObj(copy.data)) copy.data.meta = { pruned: true };
    return {
      bytes: appendLine(bytes, JSON.stringify(copy)),
      note: `append a tool/result replacing ${target}..${end} at seq ${s.next} (flaw: ${flaw})`,
    };
  },
};

/** Spec-guided mutators on parsed lines. */
export const FIELD_MUTATORS: readonly Mutator[] = [
  mutateSeq,
  mutateType,
  mutateSurfaceOp,
  mutateSources,
  mutateToolResult,
  mutatePacked,
  mutateData,
  mutateEnvelope,
  protoKey,
  mutateHeader,
  forgeCheckpoint,
  forgeToolReplace,
];

/** Every text mutator. */
export const TEXT_MUTATORS: readonly Mutator[] = [...BYTE_MUTATORS, ...LINE_MUTATORS, ...FIELD_MUTATORS];

/**
 * Apply one mutator drawn by weight (retrying a few times when the drawn one does not apply).
 * Returns null when none applied.
 */
export function mutateOnce(bytes: Uint8Array, rng: Rng, pool: readonly Mutator[] = TEXT_MUTATORS): (Mutated & { mutator: string }) | null {
  for (let tries = 0; tries < 8; tries++) {
    const mutator = rng.weighted(pool.map((m) => [m, m.weight] as const));
    const out = mutator.apply(bytes, rng);
    if (out) return { ...out, mutator: mutator.name };
  }
  return null;
}
