/**
 * Cost from recorded usage and a price list the user gives: logs record no prices. Prices are
 * dollars per million tokens, per model (`*` for any model not listed). The recorded counts are
 * disjoint (events.md §4 `TokenUsage`): input excludes cache reads and writes, output excludes
 * reasoning. Reasoning tokens are billed at the output price; cache reads and writes at the input
 * price when the list gives no price for them. A request whose model has no price (or that names
 * no model and `*` is not given) is counted as unpriced, never as free.
 */
import type { ModelUsage, TurnUsage, UsageTotals } from './usage';

/** Dollars per million tokens of one model. */
export interface ModelPrice {
  input: number;
  output: number;
  /** When absent, cache reads cost the input price. */
  cacheRead?: number;
  /** When absent, cache writes cost the input price. */
  cacheWrite?: number;
}

/** Prices by model name; `*` applies to every model not listed (and to requests naming none). */
export type PriceList = Record<string, ModelPrice>;

/** The key of the price for any model not listed. */
export const ANY_MODEL = '*';

/** What some usage costs under a price list. */
export interface Cost {
  /** Dollars of the priced requests. */
  dollars: number;
  /** Requests that were priced, and those whose model has no price. */
  priced: number;
  unpriced: number;
  /** The models without a price (null: requests that name no model), in first-seen order. */
  unpricedModels: (string | null)[];
}

/** The price of a model, or null when the list has none for it. */
export function priceFor(prices: PriceList, model: string | null): ModelPrice | null {
  if (model !== null && Object.prototype.hasOwnProperty.call(prices, model)) return prices[model] as ModelPrice;
  return Object.prototype.hasOwnProperty.call(prices, ANY_MODEL) ? (prices[ANY_MODEL] as ModelPrice) : null;
}

/** Dollars of one model's totals at a price. */
export function dollarsOf(t: UsageTotals, p: ModelPrice): number {
  const perToken = (perMillion: number): number => perMillion / 1_000_000;
  return (
    t.input * perToken(p.input) +
    (t.output + t.reasoning) * perToken(p.output) +
    t.cacheRead * perToken(p.cacheRead ?? p.input) +
    t.cacheWrite * perToken(p.cacheWrite ?? p.input)
  );
}

/** The cost of usage split by model. */
export function costOf(models: readonly ModelUsage[], prices: PriceList): Cost {
  const cost: Cost = { dollars: 0, priced: 0, unpriced: 0, unpricedModels: [] };
  for (const m of models) {
    const price = priceFor(prices, m.model);
    if (price === null) {
      cost.unpriced += m.requests;
      if (!cost.unpricedModels.includes(m.model)) cost.unpricedModels.push(m.model);
    } else {
      cost.priced += m.requests;
      cost.dollars += dollarsOf(m, price);
    }
  }
  return cost;
}

/** Cost per turn and in all, from {@link usageByTurn}'s answer. */
export function sessionCost(
  usage: { turns: readonly TurnUsage[]; total: { models: readonly ModelUsage[] } },
  prices: PriceList,
): { turns: (Cost & { turn: number | null })[]; total: Cost } {
  return { turns: usage.turns.map((t) => ({ turn: t.turn, ...costOf(t.models, prices) })), total: costOf(usage.total.models, prices) };
}

const FIELDS = ['input', 'output', 'cacheRead', 'cacheWrite'] as const;

/**
 * A price list from JSON (a `--prices` file, stored preferences): an object of model name to
 * `{input, output, cacheRead?, cacheWrite?}`, each a finite number ≥ 0. Says what is wrong, with
 * the model and field, instead of guessing.
 */
export function parsePriceList(value: unknown): { prices: PriceList } | { error: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { error: 'a price list is a JSON object of model name to prices' };
  const prices: PriceList = {};
  for (const [model, entry] of Object.entries(value as Record<string, unknown>)) {
    if (model.trim() === '') return { error: 'a model name is empty' };
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
      return { error: `${JSON.stringify(model)}: prices are an object {input, output, cacheRead?, cacheWrite?}` };
    const e = entry as Record<string, unknown>;
    const unknown = Object.keys(e).filter((k) => !(FIELDS as readonly string[]).includes(k));
    if (unknown.length > 0)
      return { error: `${JSON.stringify(model)}: unknown field ${JSON.stringify(unknown[0])} (fields: ${FIELDS.join(', ')})` };
    const price: Partial<ModelPrice> = {};
    for (const field of FIELDS) {
      const v = e[field];
      if (v === undefined && (field === 'cacheRead' || field === 'cacheWrite')) continue;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
        return { error: `${JSON.stringify(model)}.${field}: needs a number ≥ 0 (dollars per million tokens)` };
      price[field] = v;
    }
    prices[model] = price as ModelPrice;
  }
  return { prices };
}
