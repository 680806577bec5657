/**
 * Recorded token usage summed per step, per turn and per session, from the model requests
 * (each request's recorded usage, see `recorder.ts`). Counts are the provider's, not estimates.
 */
import type { ModelRequest, RecordedUsage } from './requests';

/** Summed recorded usage; a count no request recorded stays 0. */
export interface UsageTotals {
  requests: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

/** The usage of one model (`model` null for requests whose model the log does not name). */
export interface ModelUsage extends UsageTotals {
  model: string | null;
}

/**
 * The totals of one turn (`turn` null for requests outside any numbered turn), of its steps,
 * and per model (in first-request order: what a price list is applied to, see `cost.ts`).
 */
export interface TurnUsage extends UsageTotals {
  turn: number | null;
  steps: (UsageTotals & { step: number | null })[];
  models: ModelUsage[];
}

const zero = (): UsageTotals => ({ requests: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 });

function addUsage(into: UsageTotals, usage: RecordedUsage | null): void {
  into.requests++;
  if (usage === null) return;
  into.input += usage.input ?? 0;
  into.output += usage.output ?? 0;
  into.cacheRead += usage.cacheRead ?? 0;
  into.cacheWrite += usage.cacheWrite ?? 0;
  into.reasoning += usage.reasoning ?? 0;
}

function addByModel(into: ModelUsage[], r: ModelRequest): void {
  let entry = into.find((m) => m.model === r.model);
  if (entry === undefined) {
    entry = { model: r.model, ...zero() };
    into.push(entry);
  }
  addUsage(entry, r.usage);
}

/** Usage per turn (in first-request order) with its steps and models, and the session's total. */
export function usageByTurn(requests: readonly ModelRequest[]): { turns: TurnUsage[]; total: UsageTotals & { models: ModelUsage[] } } {
  const turns: TurnUsage[] = [];
  const byTurn = new Map<number | null, TurnUsage>();
  const total = { ...zero(), models: [] as ModelUsage[] };
  for (const r of requests) {
    let turn = byTurn.get(r.turn);
    if (turn === undefined) {
      turn = { turn: r.turn, ...zero(), steps: [], models: [] };
      byTurn.set(r.turn, turn);
      turns.push(turn);
    }
    let step = turn.steps.find((s) => s.step === r.step);
    if (step === undefined) {
      step = { step: r.step, ...zero() };
      turn.steps.push(step);
    }
    addUsage(step, r.usage);
    addUsage(turn, r.usage);
    addUsage(total, r.usage);
    addByModel(turn.models, r);
    addByModel(total.models, r);
  }
  return { turns, total };
}
