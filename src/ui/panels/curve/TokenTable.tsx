/**
 * Recorded tokens per turn, under the context curve: a bar per turn (input beside output, cache
 * reads marked inside the input) and the session's totals. The counts are the provider's own,
 * from each model request's recorded usage; steps open under their turn.
 */
import type { CurveUsage } from '../../../protocol/protocol';
import { formatCount } from '../../format';

type Totals = CurveUsage['total'];

function Cells({ t }: { t: Totals }) {
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

function Bar({ t, max }: { t: Totals; max: number }) {
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

export function TokenTable({ usage }: { usage: CurveUsage }) {
  if (usage.total.requests === 0) return null;
  const max = usage.turns.reduce((m, t) => Math.max(m, t.input + t.output), 0);
  return (
    <details className="tok">
      <summary>
        Tokens per turn (recorded): {formatCount(usage.total.input)} in ({formatCount(usage.total.cacheRead)} cache reads), {formatCount(usage.total.output)} out over{' '}
        {formatCount(usage.total.requests)} model requests
      </summary>
      <table className="tok-table">
        <thead>
          <tr>
            <th scope="col">Turn</th>
            <th scope="col">Requests</th>
            <th scope="col">Input</th>
            <th scope="col">Cache read</th>
            <th scope="col">Output</th>
            <th scope="col">Reasoning</th>
            <th scope="col">
              <span className="lg tok-in-lg">■ input</span> <span className="lg tok-cache-lg">■ cached</span> <span className="lg tok-out-lg">■ output</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {usage.turns.map((t) => (
            <tr key={String(t.turn)} data-turn={t.turn ?? ''}>
              <th scope="row" title={t.steps.map((s) => `step ${s.step ?? '?'}: ${formatCount(s.input)} in, ${formatCount(s.output)} out`).join('\n')}>
                {t.turn ?? '—'}
              </th>
              <Cells t={t} />
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
            <td />
          </tr>
        </tfoot>
      </table>
      <p className="hint">Logs record no prices, so no cost is shown. Cache write tokens: {formatCount(usage.total.cacheWrite)}.</p>
    </details>
  );
}
