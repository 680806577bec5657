/**
 * What a replace lost: for each literal category, how many of the shadowed messages' items the
 * replacement still holds, and the ones it does not.
 */
import type { LiteralCategory, MessageTexts } from './literals';
import { extractLiterals, keptTester, LITERAL_CATEGORIES } from './literals';

/** Dropped items listed per category at most (the counts are always whole). */
export const DROPPED_LIST_LIMIT = 100;

/** The loss of one replace (`seq` is the replacement's). */
export interface CompactionLoss {
  seq: number;
  /** `compaction` (a summarizing checkpoint), `prune` (a tool-result replacement) or `other`. */
  kind: 'compaction' | 'prune' | 'other';
  /** Shadowed surface nodes. */
  shadowed: number;
  /** `[kept, total]` per category. */
  kept: Record<LiteralCategory, [number, number]>;
  /** Items not kept, per category (at most {@link DROPPED_LIST_LIMIT} each). */
  dropped: Record<LiteralCategory, string[]>;
  /** Estimated tokens of the previous model request's messages from this replace's cut on: the cached prefix it invalidated. */
  invalidatedTokens: number;
}

/** Measure the loss of a replacement against the messages it shadowed. */
export function measureLoss(shadowed: readonly MessageTexts[], replacement: MessageTexts): Pick<CompactionLoss, 'kept' | 'dropped'> {
  const items = extractLiterals(shadowed);
  const tester = keptTester(replacement.texts);
  const kept = {} as Record<LiteralCategory, [number, number]>;
  const dropped = {} as Record<LiteralCategory, string[]>;
  for (const category of LITERAL_CATEGORIES) {
    const all = items[category];
    const lost = all.filter((item) => !tester.kept(category, item));
    kept[category] = [all.length - lost.length, all.length];
    dropped[category] = lost.slice(0, DROPPED_LIST_LIMIT);
  }
  return { kept, dropped };
}
