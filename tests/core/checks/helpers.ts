/**
 * Test-only helpers for the check tests: JSONL decoding as log-format.md §1.2 describes it, an
 * emulation of the loader's line scanner (§4) that yields its accepted prefix, and the reference
 * surface fold driven one event at a time. They are deliberately simple and slow; the product
 * code lives in src/core.
 */
import { expandPackedRow, isPackedRow, validatePackedRow } from '../../../src/core/decode/packed';
import { referenceFold } from '../../support/reference-fold';

/** A decoded event and the 1-based line of the logical text it came from. */
export interface Decoded {
  value: unknown;
  line: number;
}

/** A JSONL log split into its header line and its events (fold input decoding, §1.2). */
export interface DecodedJsonl {
  /** The first line (without LF), or `null` when the text has no LF. */
  headerLine: string | null;
  rawHasLf: boolean;
  events: Decoded[];
}

function expandLine(value: unknown): unknown[] {
  if (isPackedRow(value)) return expandPackedRow(validatePackedRow(value));
  if (Array.isArray(value)) return value as unknown[];
  return [value];
}

/** Decode every complete line after the header; the piece after the last LF is ignored. */
export function decodeJsonl(text: string): DecodedJsonl {
  const pieces = text.split('\n');
  pieces.pop();
  const rawHasLf = pieces.length > 0;
  const headerLine = rawHasLf ? (pieces[0] as string) : null;
  const events: Decoded[] = [];
  pieces.forEach((piece, i) => {
    if (i === 0 || piece.trim() === '') return;
    for (const value of expandLine(JSON.parse(piece))) events.push({ value, line: i + 1 });
  });
  return { headerLine, rawHasLf, events };
}

/**
 * The loader scanner's accepted prefix (log-format.md §4): events up to the first unparsable
 * line or seq gap, provided no later line holds a `turn/end` (then it is fatal and we throw).
 */
export function scannerPrefix(text: string): Decoded[] {
  const pieces = text.split('\n');
  pieces.pop();
  const accepted: Decoded[] = [];
  let issue: string | null = null;
  for (let i = 1; i < pieces.length; i++) {
    let decoded: unknown[];
    try {
      decoded = expandLine(JSON.parse(pieces[i] as string));
    } catch {
      issue ??= `unparsable committed event at line ${i}`;
      continue;
    }
    const hasTurnEnd = decoded.some((e) => (e as { type?: unknown } | null)?.type === 'turn/end');
    if (issue !== null) {
      if (hasTurnEnd) throw new Error(issue);
      continue;
    }
    const before = accepted.length;
    for (const value of decoded) {
      if ((value as { seq?: unknown }).seq !== accepted.length) {
        issue = `seq gap at line ${i}`;
        accepted.length = before;
        if (hasTurnEnd) throw new Error(issue);
        break;
      }
      accepted.push({ value, line: i + 1 });
    }
  }
  return accepted;
}

/**
 * The reference fold (tests/support/reference-fold.ts) driven one event at a time as a
 * `SurfaceStep`: each step refolds the prefix, which is quadratic but trivial for vectors. It
 * keeps every event it accepted so tests can read nodes and derive messages afterwards.
 */
export class FoldStepper {
  readonly events: unknown[] = [];

  step = (event: unknown, index: number): string | null => {
    this.events.push(event);
    const { error } = referenceFold(this.events);
    return error !== null && error.index === index ? error.message : null;
  };

  /** The surface nodes after the accepted events. */
  get nodes(): number[] {
    return referenceFold(this.events).nodes;
  }

  /** Model-view message ids of the current nodes (surface.md §7): null projections dropped. */
  messageIds(): unknown[] {
    const ids: unknown[] = [];
    for (const seq of this.nodes) {
      const { type, data } = this.events[seq] as { type: string; data: Record<string, unknown> };
      const message = data.message as { id: unknown; content: unknown[] } | undefined;
      if (type === 'user/message') ids.push(data.id);
      else if (type === 'tool/result') ids.push(message?.id);
      else if ((message?.content.length ?? 0) > 0) ids.push(message?.id);
    }
    return ids;
  }
}
