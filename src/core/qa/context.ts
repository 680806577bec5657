/**
 * What the QA checks need from the streaming fold besides the event itself. The analyzer
 * implements it over its own fold state; tests build one from a plain events array.
 */
import type { NodePositions, Plan } from '../fold/surface';

/** A read-only view of the streaming fold, as of the event the check is looking at. */
export interface QaFoldContext {
  /**
   * The plan the fold applied for event `index` (`null` if the event was log-only or the fold
   * refused it; a `{kind: 'log-only'}` plan is accepted too). Only asked for the event just
   * passed to the check, after the fold applied it.
   */
  planAt(index: number): Plan | null;
  /**
   * The current surface after applying that event (the fold's `LiveSurface` or an array of
   * node seqs). Read-only; never retained.
   */
  nodes(): NodePositions;
  /** Re-parses the earlier event with this absolute seq (a fresh object each call). */
  eventAt(seq: number): unknown;
}
