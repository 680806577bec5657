/**
 * Redaction of one parsed record (the header, an event, a packed chunk row): every string value
 * goes through the {@link Redactor}; keys, numbers and the fields the fold and the decoder read
 * structurally are left alone, so the record keeps its shape, its envelope and its ids.
 */
import type { Redactor } from './redactor';

/**
 * Keys whose values are never rewritten: the envelope and surface fields the fold reads
 * (surface.md §2), packed rows' envelope (log-format.md §3.2), discriminators and ids that link
 * records to each other. A secret does not live in these; a changed one would change the fold.
 */
const STRUCTURAL = new Set([
  'type',
  'seq',
  'time',
  'surfaceOp',
  'sourceEventSeqs',
  'seq0',
  'time0',
  'dt',
  'role',
  'kind',
  'op',
  'id',
  'version',
]);
const isStructural = (key: string): boolean => STRUCTURAL.has(key) || /(?:Id|Ids|Seq|Seqs)$/.test(key);

/** The upstream pruning marker between the kept head and tail of a pruned result (events.md §6.3). */
export const PRUNE_MARKER = '\n\n[... tool result middle pruned ...]\n\n';

type Json = unknown;
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A value with every string rewritten; `changed` is set when anything was. */
function redactValue(value: Json, redactor: Redactor, changed: { any: boolean }): Json {
  if (typeof value === 'string') {
    const out = redactor.text(value);
    if (out !== value) changed.any = true;
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redactor, changed));
  if (isObj(value)) {
    const out: Obj = {};
    for (const [key, v] of Object.entries(value)) out[key] = isStructural(key) ? v : redactValue(v, redactor, changed);
    return out;
  }
  return value;
}

/**
 * A redacted copy of a record (the input is not changed).
 * @param originalOf for a pruned copy of a tool result (a `tool/result` replacing one node), the
 *   original event by seq, so the copy's head and tail are cut again from the redacted original:
 *   a secret that straddled the cut leaves no piece behind, and the copy stays the exact cut of
 *   the original it replaces (a prune stays a prune)
 * @returns the copy, and whether anything was replaced
 */
export function redactRecord(
  record: Json,
  redactor: Redactor,
  originalOf: (seq: number) => Json = () => null,
): { value: Json; changed: boolean } {
  const changed = { any: false };
  const value = redactValue(record, redactor, changed);
  if (isObj(record) && isObj(value) && record.type === 'tool/result') {
    const op = record.surfaceOp;
    if (isObj(op) && op.op === 'replace' && typeof op.start === 'number' && op.start === op.end) {
      const original = originalOf(op.start);
      if (isObj(original) && original.type === 'tool/result' && recutPrune(original, record, value, redactor)) changed.any = true;
    }
  }
  if (changed.any) redactor.countRecord();
  return { value, changed: changed.any };
}

/** The first block's `content` of a tool result's message, as the fold's T3 rule sees it. */
function firstContent(event: Obj): { holder: Obj; content: unknown } | null {
  const data = event.data;
  if (!isObj(data) || !isObj(data.message) || !Array.isArray(data.message.content)) return null;
  const block: unknown = data.message.content[0];
  return isObj(block) ? { holder: block, content: block.content } : null;
}

/** The texts of a content value: a string, or the `text` of each block of an array. */
function textsOf(content: unknown): (string | null)[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.map((block) => (isObj(block) && typeof block.text === 'string' ? block.text : null));
}

const codePoints = (text: string): string[] => Array.from(text);

/**
 * Where the (unredacted) copy's text is `head + PRUNE_MARKER + tail` of the original's, rewrite
 * the redacted copy's text as the same cut of the redacted original. Returns true when it did.
 */
function recutPrune(original: Obj, copy: Obj, redactedCopy: Obj, redactor: Redactor): boolean {
  const before = firstContent(original);
  const cut = firstContent(copy);
  const target = firstContent(redactedCopy);
  if (!before || !cut || !target) return false;
  const originals = textsOf(before.content);
  const copies = textsOf(cut.content);
  let rewrote = false;
  copies.forEach((text, i) => {
    const source = originals[i];
    if (text === null || source === null || source === undefined) return;
    const at = text.indexOf(PRUNE_MARKER);
    if (at < 0) return;
    const head = text.slice(0, at);
    const tail = text.slice(at + PRUNE_MARKER.length);
    if (!source.startsWith(head) || !source.endsWith(tail) || head.length + tail.length > source.length) return;
    // Counted once, where the original itself was written.
    const clean = codePoints(redactor.text(source, false));
    const headCount = codePoints(head).length;
    const tailCount = codePoints(tail).length;
    const recut = clean.slice(0, headCount).join('') + PRUNE_MARKER + (tailCount === 0 ? '' : clean.slice(-tailCount).join(''));
    const content = target.holder.content;
    if (typeof content === 'string') target.holder.content = recut;
    else if (Array.isArray(content) && isObj(content[i])) content[i] = { ...content[i], text: recut };
    else return;
    if (recut !== text) rewrote = true;
  });
  return rewrote;
}
