/**
 * Log shapes the benchmark needs beyond what {@link generateLines} writes on its own: a
 * replace-heavy log (every replace shadows the last node, the adversarial case of a fold that
 * searches its nodes linearly), and `shiftRecord`, which moves a record's seqs and times so a
 * long log can be built from shifted copies of a shorter one.
 */
import { Rng } from './rng';

/** Options of {@link generateReplaceHeavyLines}. */
export interface ReplaceHeavyOptions {
  seed: number;
  /** Surface appends first (user messages). */
  appends: number;
  /** Then this many replaces, each shadowing the node the previous one left last. */
  replaces: number;
  /** Characters of text per message. Default 320. */
  textChars?: number | undefined;
}

const WORDS = 'the surface node replace append fold index check log event seq range summary text'.split(' ');

function text(rng: Rng, chars: number): string {
  let out = '';
  while (out.length < chars) out += (out.length === 0 ? '' : ' ') + rng.pick<string>(WORDS);
  return out;
}

/**
 * A valid log of `appends` user-message appends, then `replaces` assistant-message replaces,
 * each of the last current node (citing it). Lines without their LF, the header first.
 */
export function* generateReplaceHeavyLines(opts: ReplaceHeavyOptions): Generator<string, void, undefined> {
  const rng = new Rng(`replace-heavy-${opts.seed}`);
  const chars = opts.textChars ?? 320;
  const createdAt = 1785400000000;
  yield JSON.stringify({
    type: 'session',
    version: 0,
    id: `00000000-0000-4000-8000-${String(opts.seed).padStart(12, '0')}`,
    createdAt,
    cwd: '/home/dev/project',
    delegationDepth: 0,
  });
  let seq = 0;
  for (let i = 0; i < opts.appends; i++, seq++) {
    yield JSON.stringify({
      type: 'user/message',
      seq,
      time: createdAt + 1 + seq,
      data: { content: [{ type: 'text', text: text(rng, chars) }], source: { kind: 'user' }, role: 'user', id: `m-${seq}` },
      surfaceOp: 'append',
    });
  }
  for (let i = 0; i < opts.replaces; i++, seq++) {
    const last = seq - 1;
    yield JSON.stringify({
      type: 'assistant/message',
      seq,
      time: createdAt + 1 + seq,
      data: { message: { role: 'assistant', content: [{ type: 'text', text: text(rng, chars) }] } },
      sourceEventSeqs: [last],
      surfaceOp: { op: 'replace', start: last, end: last },
    });
  }
}

/* eslint-disable @typescript-eslint/no-explicit-any */
/** Add `by` to a seq field when it holds a number. */
function shiftField(holder: any, key: string, by: number): void {
  if (typeof holder?.[key] === 'number') holder[key] += by;
}

/** Add `by` to every number of an array field. */
function shiftList(holder: any, key: string, by: number): void {
  const list = holder?.[key];
  if (Array.isArray(list)) for (let i = 0; i < list.length; i++) if (typeof list[i] === 'number') list[i] += by;
}

/**
 * One storage record (an event or a packed chunk row) with its seqs moved by `seqBy` and its
 * times by `timeBy`: the record's own seq/seq0 and time/time0, its `surfaceOp` range and
 * `sourceEventSeqs`, and the seq fields the generator writes into `data` (`messageSeqs`,
 * `shadowedSeqs`, `shadowedRange`, `sourceEventSeq`).
 */
export function shiftRecord(record: any, seqBy: number, timeBy: number): any {
  shiftField(record, 'seq', seqBy);
  shiftField(record, 'seq0', seqBy);
  shiftField(record, 'time', timeBy);
  shiftField(record, 'time0', timeBy);
  const op = record?.surfaceOp;
  if (op !== null && typeof op === 'object') {
    shiftField(op, 'start', seqBy);
    shiftField(op, 'end', seqBy);
  }
  shiftList(record, 'sourceEventSeqs', seqBy);
  const data = record?.data;
  if (data !== null && typeof data === 'object') {
    shiftList(data, 'messageSeqs', seqBy);
    shiftList(data, 'shadowedSeqs', seqBy);
    shiftField(data, 'sourceEventSeq', seqBy);
    const range = data.shadowedRange;
    if (range !== null && typeof range === 'object') {
      shiftField(range, 'start', seqBy);
      shiftField(range, 'end', seqBy);
    }
  }
  return record;
}
/* eslint-enable @typescript-eslint/no-explicit-any */
