/**
 * Packed chunk rows (log-format.md §3.2–§3.3): storage records that hold a run of
 * `assistant/chunk` events. Validation messages are upstream's, in upstream's order.
 */

/** The three row tags. Event types always contain `/`; these never do. */
export const ROW_TAGS: ReadonlySet<unknown> = new Set(['text-chunks', 'reasoning-chunks', 'tool-call-chunks']);

/** A malformed packed row: the whole input is undecodable from this line on. */
export class PackedRowError extends Error {
  override readonly name = 'PackedRowError';
}

/** True when a parsed storage record is a packed chunk row. */
export function isPackedRow(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && ROW_TAGS.has((value as { type?: unknown }).type);
}

function hasExactKeys(obj: object, keys: readonly string[]): boolean {
  const own = Object.keys(obj);
  if (own.length !== keys.length) return false;
  for (const key of own) if (!keys.includes(key)) return false;
  return true;
}

const isSafeInt = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);

const ENVELOPE = ['type', 'seq0', 'time0', 'data'] as const;
const TOOL_KEYS = ['turn', 'step', 'index', 'id', 'name', 'dt', 'args'] as const;
const TOOL_KEYS_NO_NAME = ['turn', 'step', 'index', 'id', 'dt', 'args'] as const;
const TEXT_KEYS = ['turn', 'step', 'index', 'dt', 'texts'] as const;

/** A validated row, ready to expand. */
export interface PackedRow {
  tag: 'text-chunks' | 'reasoning-chunks' | 'tool-call-chunks';
  seq0: number;
  time0: number;
  turn: unknown;
  step: unknown;
  index: unknown;
  id: string | undefined;
  name: string | undefined;
  hasName: boolean;
  dt: number[];
  members: string[];
}

/**
 * Validate a packed row (§3.2 checks 1–12, in order).
 * @throws PackedRowError `malformed ${tag} storage row: ${why}`
 */
export function validatePackedRow(row: Record<string, unknown>): PackedRow {
  const tag = row.type as PackedRow['tag'];
  const fail = (why: string): never => {
    throw new PackedRowError(`malformed ${tag} storage row: ${why}`);
  };
  if (!hasExactKeys(row, ENVELOPE)) fail('envelope must be exactly {type, seq0, time0, data}');
  const { seq0, time0, data } = row;
  if (!isSafeInt(seq0) || seq0 < 0) fail('seq0 must be a non-negative safe integer');
  if (!isSafeInt(time0)) fail('time0 must be a safe integer');
  if (data === null || typeof data !== 'object') fail('data must be an object');
  const d = data as Record<string, unknown>;
  const isTool = tag === 'tool-call-chunks';
  if (isTool) {
    if (!hasExactKeys(d, TOOL_KEYS) && !hasExactKeys(d, TOOL_KEYS_NO_NAME)) {
      fail('data must be exactly {turn, step, index, id, name?, dt, args}');
    }
    if (typeof d.id !== 'string' || ('name' in d && typeof d.name !== 'string')) {
      fail('id (and name when present) must be strings');
    }
  } else if (!hasExactKeys(d, TEXT_KEYS)) {
    fail('data must be exactly {turn, step, index, dt, texts}');
  }
  if (typeof d.turn !== 'number' || typeof d.step !== 'number' || typeof d.index !== 'number') {
    fail('turn/step/index must be numbers');
  }
  const payloadKey = isTool ? 'args' : 'texts';
  const members = d[payloadKey];
  if (!Array.isArray(members) || members.length === 0 || members.some((m) => typeof m !== 'string')) {
    fail(`${payloadKey} must be a non-empty string array`);
  }
  const dt = d.dt;
  if (!Array.isArray(dt) || dt.some((x) => !isSafeInt(x))) fail('dt must be an array of safe integers');
  const n = (members as string[]).length;
  const gaps = dt as number[];
  if (gaps.length !== n - 1) fail(`dt length ${gaps.length} does not match ${n} members`);
  // Evaluated in doubles exactly as written (rounding near 2^53 may let it pass, as upstream).
  if (!Number.isSafeInteger((seq0 as number) + n - 1)) fail('member seqs must stay safe integers');
  let time = time0 as number;
  for (const gap of gaps) {
    time += gap;
    if (!Number.isSafeInteger(time)) fail('member times must stay safe integers');
  }
  const hasName = isTool && 'name' in d;
  return {
    tag,
    seq0: seq0 as number,
    time0: time0 as number,
    turn: d.turn,
    step: d.step,
    index: d.index,
    id: isTool ? (d.id as string) : undefined,
    name: hasName ? (d.name as string) : undefined,
    hasName,
    dt: gaps,
    members: members as string[],
  };
}

/** Expand member `k` of a validated row into its `assistant/chunk` event (§3.3). */
export function expandPackedMember(row: PackedRow, k: number, time: number): Record<string, unknown> {
  const member = row.members[k] as string;
  let chunk: Record<string, unknown>;
  if (row.tag === 'tool-call-chunks') {
    chunk = row.hasName
      ? { type: 'tool-call-delta', index: row.index, id: row.id, name: row.name, argumentsDelta: member }
      : { type: 'tool-call-delta', index: row.index, id: row.id, argumentsDelta: member };
  } else {
    chunk = { type: row.tag === 'text-chunks' ? 'text-delta' : 'reasoning-delta', index: row.index, text: member };
  }
  return { type: 'assistant/chunk', seq: row.seq0 + k, time, data: { turn: row.turn, step: row.step, chunk } };
}

/** Expand a validated row into all its events, with cumulative member times. */
export function expandPackedRow(row: PackedRow): Record<string, unknown>[] {
  // One pass, no times array: this is the expansion every packed row gets where all members are
  // needed (the loader's view after damage, search, the benchmark's baseline).
  const out: Record<string, unknown>[] = [];
  let time = row.time0;
  for (let k = 0; k < row.members.length; k++) {
    if (k > 0) time += row.dt[k - 1]!;
    out.push(expandPackedMember(row, k, time));
  }
  return out;
}

/**
 * The members of a validated row without building them: each member's seq and time, and its
 * event on demand. Most members of a long log are looked at only through their seq and time,
 * so building every event object (three objects per chunk) would be most of the garbage a load
 * makes. Every member is an `assistant/chunk` with no `surfaceOp` and no `sourceEventSeqs`.
 */
export class PackedMembers {
  readonly row: PackedRow;
  readonly length: number;
  private readonly times: number[];

  constructor(row: PackedRow) {
    this.row = row;
    this.length = row.members.length;
    const times: number[] = [row.time0];
    let time = row.time0;
    for (let k = 0; k < row.dt.length; k++) {
      time += row.dt[k]!;
      times.push(time);
    }
    this.times = times;
  }

  /** Member `k`'s seq. */
  seq(k: number): number {
    return this.row.seq0 + k;
  }

  /** Member `k`'s time (time0 plus the gaps before it). */
  time(k: number): number {
    return this.times[k]!;
  }

  /** A new event object for member `k` (§3.3): the row's fields, the member's seq and time. */
  event(k: number): Record<string, unknown> {
    return expandPackedMember(this.row, k, this.times[k]!);
  }
}
