/**
 * What a replace lost: for each literal category, how many of the shadowed messages' items the
 * replacement still holds, and the ones it does not. Measured on demand (the inspector, `check
 * --json`): the load records only each replace's cost and its constraint counts.
 */
import type { Replacement } from '../model';
import { derivedMessage } from '../qa/size';
import type { LiteralCategory, MessageTexts } from './literals';
import { extractLiterals, keptTester, LITERAL_CATEGORIES, messageTexts } from './literals';

/** Dropped items listed per category at most (the counts are always whole). */
export const DROPPED_LIST_LIMIT = 100;

/** What the load records of every applied replace (`seq` is the replacement's). */
export interface ReplaceCost {
  seq: number;
  /** `compaction` (a summarizing checkpoint), `prune` (a tool-result replacement) or `other`. */
  kind: 'compaction' | 'prune' | 'other';
  /** Shadowed surface nodes. */
  shadowed: number;
  /** Index in the derived-message list where it cut. */
  cut: number;
  /** Estimated tokens of the previous model request's messages from the cut on: the cached prefix it invalidated. */
  invalidatedTokens: number;
  /** `[kept, total]` of the user's explicit constraints, for a summarizing compaction; else null. */
  constraints: [number, number] | null;
}

/** The loss of one replace. */
export interface CompactionLoss extends Omit<ReplaceCost, 'constraints'> {
  /** `[kept, total]` per category. */
  kept: Record<LiteralCategory, [number, number]>;
  /** Items not kept, per category (at most {@link DROPPED_LIST_LIMIT} each). */
  dropped: Record<LiteralCategory, string[]>;
}

/** Measure a replacement against the messages it shadowed (of some categories only, when said). */
export function measureLoss(
  shadowed: readonly MessageTexts[],
  replacement: MessageTexts,
  only?: ReadonlySet<LiteralCategory>,
): Pick<CompactionLoss, 'kept' | 'dropped'> {
  const items = extractLiterals(shadowed, only);
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

/**
 * The loss of one applied replace, re-reading its shadowed events and its replacement.
 * @param lookup an event by absolute seq
 */
export function replaceLoss(lookup: (seq: number) => unknown, replacement: Replacement, cost: ReplaceCost): CompactionLoss {
  const shadowed = replacement.shadowedSeqs.map((s) => messageTexts(derivedMessage(lookup(s))));
  const { constraints: _constraints, ...rest } = cost;
  return { ...rest, ...measureLoss(shadowed, messageTexts(derivedMessage(lookup(replacement.seq)))) };
}
