/**
 * The standard set of diagnostic checks run over every session, and the second fold the loader
 * view needs (upstream's loader folds the upgraded events, not the raw ones).
 */
import type { EventCheck, SurfaceStep } from '../checks/check';
import type { HeaderLineResult } from '../checks/header';
import { upgradeLegacyEvent } from '../checks/legacy';
import { LoaderCheck } from '../checks/loader';
import { RelationalCheck } from '../checks/relational';
import { SeedCheck } from '../checks/seed';
import type { SurfaceState } from '../fold/surface';
import { applyPlan, describeFoldError, planEvent } from '../fold/surface';
import type { Diagnostic, EventLog, SessionFormat } from '../model';
import type { FoldProbe } from './session';

/** What the checks of one session need to know. */
export interface CheckContext {
  format: SessionFormat;
  /** The header-line verdict, for session JSONL (null for forms without a header line). */
  header: HeaderLineResult | null;
  /** The raw fold's verdicts. */
  fold: FoldProbe;
  log: EventLog;
}

/**
 * A streaming fold over the loader's upgraded events (log-format.md §11 L7, S8). For a log with
 * no legacy shapes it agrees with the raw fold; it exists for the logs where they differ.
 */
function loaderFold(log: EventLog, sessionId: string): SurfaceStep {
  const state: SurfaceState = { nodes: [], replaceGeneration: 0 };
  const quiet = { sessionId, messageIdAt: () => undefined, upgraded: () => {} };
  const lookup = (seq: number): unknown => {
    try {
      return upgradeLegacyEvent(log.event(seq), quiet);
    } catch {
      return log.event(seq);
    }
  };
  return (event, index) => {
    try {
      applyPlan(state, planEvent(event, index, state.nodes, lookup));
      return null;
    } catch (error) {
      return describeFoldError(error).message;
    }
  };
}

/** A check that turns the loader's final verdict into one summary line. */
class LoaderSummary implements EventCheck {
  constructor(private readonly loader: LoaderCheck) {}
  event(): void {}
  finish(): Diagnostic[] {
    const { loadError, appended } = this.loader.loaderResult();
    const message =
      loadError === null
        ? `upstream's loader accepts this log and appends ${appended.join(', ')}`
        : `upstream's loader refuses this log: ${loadError}`;
    return [{ severity: 'info', rule: 'loader/result', seq: null, line: null, message }];
  }
}

/** Build the checks for one session. */
export function standardChecks(ctx: CheckContext): EventCheck[] {
  const checks: EventCheck[] = [new SeedCheck({ surface: (_event, index) => ctx.fold.errorAt(index) })];
  if (ctx.header !== null) {
    const loader = new LoaderCheck(ctx.header, { surface: loaderFold(ctx.log, ctx.header.sessionId ?? '') });
    checks.push(loader, new LoaderSummary(loader));
  }
  checks.push(new RelationalCheck());
  return checks;
}
