/**
 * The price list the token table's cost is computed with: logs record no prices, so the user
 * gives them, per model, in dollars per million tokens. Persisted in the preferences. Rows start
 * with the models the session names; `*` prices every other model.
 */
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { ANY_MODEL, parsePriceList } from '../../../protocol/protocol';
import type { PriceList } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';

interface Row {
  model: string;
  input: string;
  output: string;
  cacheRead: string;
  cacheWrite: string;
}

const FIELDS = [
  ['input', 'Input'],
  ['output', 'Output'],
  ['cacheRead', 'Cache read'],
  ['cacheWrite', 'Cache write'],
] as const;

function rowsOf(prices: PriceList, models: readonly (string | null)[]): Row[] {
  const rows: Row[] = Object.entries(prices).map(([model, p]) => ({
    model,
    input: String(p.input),
    output: String(p.output),
    cacheRead: p.cacheRead === undefined ? '' : String(p.cacheRead),
    cacheWrite: p.cacheWrite === undefined ? '' : String(p.cacheWrite),
  }));
  for (const model of models) {
    const name = model ?? ANY_MODEL;
    if (!rows.some((r) => r.model === name)) rows.push({ model: name, input: '', output: '', cacheRead: '', cacheWrite: '' });
  }
  if (rows.length === 0) rows.push({ model: ANY_MODEL, input: '', output: '', cacheRead: '', cacheWrite: '' });
  return rows;
}

/** Rows with no price typed are left out; a row with some is checked whole. */
function listOf(rows: readonly Row[]): { prices: PriceList } | { error: string } {
  const raw: Record<string, Record<string, number>> = {};
  for (const row of rows) {
    const typed = FIELDS.filter(([f]) => row[f].trim() !== '');
    if (typed.length === 0) continue;
    const model = row.model.trim();
    if (model === '') return { error: 'a row with prices needs a model name' };
    if (Object.prototype.hasOwnProperty.call(raw, model)) return { error: `${JSON.stringify(model)} is listed twice` };
    const entry: Record<string, number> = {};
    for (const [f] of typed) entry[f] = Number(row[f].trim());
    raw[model] = entry;
  }
  return parsePriceList(raw);
}

export function PriceSettings({ models, onDone }: { models: readonly (string | null)[]; onDone: () => void }) {
  const prices = useAppStore((s) => s.prices);
  const setPrices = useAppStore((s) => s.setPrices);
  const [rows, setRows] = useState<Row[]>(() => rowsOf(prices, models));
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const update = (i: number, field: keyof Row, value: string) => setRows(rows.map((r, j) => (j === i ? { ...r, [field]: value } : r)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = listOf(rows);
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    setPrices(parsed.prices);
    setError(null);
    onDone();
  };
  return (
    <form className="prices" aria-label="Prices per model" onSubmit={submit}>
      <p className="hint">
        Dollars per million tokens. <span className="mono">{ANY_MODEL}</span> prices every model not listed. An empty cache price counts
        those tokens at the input price; reasoning tokens cost the output price. Kept in this browser only.
      </p>
      <table className="prices-table">
        <thead>
          <tr>
            <th scope="col" id={`${id}-model`}>
              Model
            </th>
            {FIELDS.map(([f, label]) => (
              <th scope="col" key={f} id={`${id}-${f}`}>
                {label}
              </th>
            ))}
            <th scope="col">
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              <td>
                <input
                  aria-label={`Model of row ${i + 1}`}
                  value={row.model}
                  onChange={(e) => update(i, 'model', e.target.value)}
                  spellCheck={false}
                />
              </td>
              {FIELDS.map(([f, label]) => (
                <td key={f}>
                  <input
                    aria-label={`${label} price of ${row.model || `row ${i + 1}`}`}
                    inputMode="decimal"
                    value={row[f]}
                    onChange={(e) => update(i, f, e.target.value)}
                    size={7}
                  />
                </td>
              ))}
              <td>
                <button
                  type="button"
                  aria-label={`Remove ${row.model || `row ${i + 1}`}`}
                  onClick={() => setRows(rows.filter((_, j) => j !== i))}
                >
                  ✕
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error ? (
        <p className="panel-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="prices-actions">
        <button type="button" onClick={() => setRows([...rows, { model: '', input: '', output: '', cacheRead: '', cacheWrite: '' }])}>
          Add model
        </button>
        <button type="submit">Save prices</button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
