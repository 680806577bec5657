/**
 * Recorded tokens per turn, under the context curve: a bar per turn (input beside output, cache
 * reads marked inside the input), the session's totals, and the cost per turn and in all under
 * the prices the user gave (logs record none). The counts are the provider's own, from each
 * model request's recorded usage; steps open under their turn.
 */
import { memo, useState } from 'react';
import { costOf, sessionCost } from '../../../protocol/protocol';
import type { Cost, CurveUsage, CurveUsageSummary } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectClient, selectSessionId, selectSessionKey } from '../../../store/selectors';
import { useRemote } from '../../hooks/useRemote';
import { formatCount } from '../../format';
import { PriceSettings } from './PriceSettings';

type Totals = CurveUsage['total'];
type Turns = CurveUsage['turns'];

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });

/** `$0.0123`, with what could not be priced said beside it. */
export function formatCost(c: Cost): string {
  if (c.priced === 0 && c.unpriced > 0) return 'no price';
  const text = dollars.format(c.dollars);
  return c.unpriced > 0 ? `${text} + ${formatCount(c.unpriced)} unpriced` : text;
}

function Cells({ t }: { t: Omit<Totals, 'models'> }) {
  return (
    <>
      <td className="mono">{formatCount(t.requests)}</td>
      <td className="mono">{formatCount(t.input)}</td>
      <td className="mono">{formatCount(t.cacheRead)}</td>
      <td className="mono">{formatCount(t.output)}</td>
      <td className="mono">{formatCount(t.reasoning)}</td>
    </>
  );
}

function Bar({ t, max }: { t: Omit<Totals, 'models'>; max: number }) {
  const pct = (n: number): string => `${max > 0 ? (100 * n) / max : 0}%`;
  return (
    <span className="tok-bar" aria-hidden="true">
      <span className="tok-in" style={{ width: pct(t.input) }}>
        <span className="tok-cache" style={{ width: t.input > 0 ? `${(100 * Math.min(t.cacheRead, t.input)) / t.input}%` : '0%' }} />
      </span>
      <span className="tok-out" style={{ width: pct(t.output) }} />
    </span>
  );
}

const modelName = (m: string | null): string => m ?? '(no model named)';

/**
 * Memoized: the context curve re-renders on every seek, and a long session has thousands of
 * turns. The rows are rendered only while the table is open, for the same reason.
 */
export const TokenTable = memo(function TokenTable({ usage }: { usage: CurveUsageSummary }) {
  const prices = useAppStore((s) => s.prices);
  const [editing, setEditing] = useState(false);
  const [open, setOpen] = useState(false);
  if (usage.total.requests === 0) return null;
  const priced = Object.keys(prices).length > 0;
  const cost = priced ? costOf(usage.total.models, prices) : null;
  const models = usage.total.models.map((m) => m.model);
  return (
    <details className="tok" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        Tokens per turn (recorded): {formatCount(usage.total.input)} in ({formatCount(usage.total.cacheRead)} cache reads),{' '}
        {formatCount(usage.total.output)} out over {formatCount(usage.total.requests)} model requests
        {cost ? `, ${formatCost(cost)}` : ''}
      </summary>
      {open ? <TurnRows total={usage.total} turns={usage.turns} /> : null}
      <p className="hint">
        {cost
          ? cost.unpriced > 0
            ? `Cost from the prices you gave; no price for ${cost.unpricedModels.map(modelName).join(', ')} (${formatCount(cost.unpriced)} requests not counted). `
            : 'Cost from the prices you gave (logs record no prices). '
          : 'Logs record no prices, so no cost is shown until you give prices. '}
        Models: {models.map(modelName).join(', ')}. Cache write tokens: {formatCount(usage.total.cacheWrite)}.{' '}
        <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
          {priced ? 'Edit prices…' : 'Set prices…'}
        </button>
      </p>
      {editing ? <PriceSettings models={models} onDone={() => setEditing(false)} /> : null}
    </details>
  );
});

/** The table once opened: its turns asked of the engine then (see {@link CurveUsageSummary}). */
function TurnRows({ total, turns: count }: { total: Totals; turns: number }) {
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  const prices = useAppStore((s) => s.prices);
  const remote = useRemote<Turns>(`${sessionKey}|usageTurns`, () => client.usageTurns({ session }));
  if (remote.error) return <p className="panel-error">Could not read the turns: {remote.error}</p>;
  const turns = remote.data && remote.dataKey === `${sessionKey}|usageTurns` ? remote.data : null;
  if (!turns) return <p className="hint">Reading {formatCount(count)} turns…</p>;
  const usage = { turns, total };
  return <TurnTable usage={usage} cost={Object.keys(prices).length > 0 ? sessionCost(usage, prices) : null} />;
}

/** The rows, one per turn, and the totals. */
function TurnTable({ usage, cost }: { usage: CurveUsage; cost: ReturnType<typeof sessionCost> | null }) {
  const max = usage.turns.reduce((m, t) => Math.max(m, t.input + t.output), 0);
  return (
    <table className="tok-table">
      <thead>
        <tr>
          <th scope="col">Turn</th>
          <th scope="col">Requests</th>
          <th scope="col">Input</th>
          <th scope="col">Cache read</th>
          <th scope="col">Output</th>
          <th scope="col">Reasoning</th>
          {cost ? <th scope="col">Cost</th> : null}
          <th scope="col">
            <span className="lg tok-in-lg">■ input</span> <span className="lg tok-cache-lg">■ cached</span>{' '}
            <span className="lg tok-out-lg">■ output</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {usage.turns.map((t, i) => (
          <tr key={String(t.turn)} data-turn={t.turn ?? ''}>
            <th
              scope="row"
              title={t.steps.map((s) => `step ${s.step ?? '?'}: ${formatCount(s.input)} in, ${formatCount(s.output)} out`).join('\n')}
            >
              {t.turn ?? '—'}
            </th>
            <Cells t={t} />
            {cost ? <td className="mono tok-cost">{formatCost(cost.turns[i] as Cost)}</td> : null}
            <td className="tok-bar-cell">
              <Bar t={t} max={max} />
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <Cells t={usage.total} />
          {cost ? <td className="mono tok-cost">{formatCost(cost.total)}</td> : null}
          <td />
        </tr>
      </tfoot>
    </table>
  );
}
