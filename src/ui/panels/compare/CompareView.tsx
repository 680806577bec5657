/**
 * Two sessions side by side: where they stop being equal (the longest common event prefix, from
 * the core's comparison), then both stepped together by the one cursor — the other side at the
 * same step, as far as it goes — with the two model views diffed message by message, the two
 * context curves overlaid, and the per-request token and cache deltas.
 */
import { useState } from 'react';
import type { CompareViewData, CurveData, SessionComparison } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectClient, selectIsReady, selectSessionId, selectSessionKey } from '../../../store/selectors';
import type { CompareState } from '../../../store/types';
import { useDeferredStep } from '../../hooks/useDeferredCursor';
import { useRemote } from '../../hooks/useRemote';
import { formatCount, plural } from '../../format';
import { Panel } from '../../widgets/Panel';

const CURVE_W = 600;
const CURVE_H = 80;

const signed = (n: number | null): string => (n === null ? '—' : n > 0 ? `+${formatCount(n)}` : formatCount(n));

export function CompareView() {
  const compare = useAppStore((s) => s.compare);
  const close = useAppStore((s) => s.closeCompare);
  if (!compare) return null;
  return (
    <Panel
      title="Comparison"
      className="compare"
      meta={
        <button type="button" onClick={close}>
          Close comparison
        </button>
      }
    >
      {compare.status === 'loading' ? <p className="hint">Opening {compare.label}…</p> : null}
      {compare.status === 'error' ? (
        <p className="panel-error" role="alert">
          Could not compare with {compare.label}: {compare.error}
        </p>
      ) : null}
      {compare.status === 'ready' && compare.handle !== null ? <Compared compare={compare} other={compare.handle} /> : null}
    </Panel>
  );
}

function Compared({ compare, other }: { compare: CompareState; other: number }) {
  const ready = useAppStore(selectIsReady);
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  const goTo = useAppStore((s) => s.goTo);
  const step = useDeferredStep();
  const key = ready ? `${sessionKey}|compare|${other}` : null;
  const remote = useRemote<SessionComparison>(key, () => client.compare({ session, other }));
  const c = remote.data && remote.dataKey === key ? remote.data : null;
  if (remote.error) return <p className="panel-error">Could not compare: {remote.error}</p>;
  if (!c) return <p className="hint">Comparing…</p>;
  const otherStep = Math.min(step, c.accepted.b);
  const where = (side: 'a' | 'b') => {
    const d = c.divergence[side];
    return d ? `seq ${d.seq} (${d.type ?? 'no type'})` : 'its end';
  };
  return (
    <div className="cmp">
      <p className="cmp-summary" role="status">
        {c.equal
          ? `The two logs are equal, event for event (${plural(c.commonPrefix, 'event')}).`
          : `Equal for the first ${plural(c.commonPrefix, 'event')}; then this log has ${where('a')}, ${compare.label} has ${where('b')}.`}{' '}
        {c.equal ? null : (
          <button type="button" onClick={() => goTo(c.commonPrefix)}>
            Go to where they diverge
          </button>
        )}
      </p>
      <p className="hint cmp-steps">
        Stepping both together: this log at step {formatCount(step)}, {compare.label} at step {formatCount(otherStep)}
        {otherStep < step ? ' (its last)' : ''}. Requests: {formatCount(c.requests.a)} and {formatCount(c.requests.b)},{' '}
        {formatCount(c.requests.same)} identical.
      </p>
      <CompareLink />
      <CurvesOverlay other={other} step={step} otherStep={otherStep} commonPrefix={c.commonPrefix} />
      <MessageDiff other={other} step={step} otherStep={otherStep} label={compare.label} />
      <Deltas c={c} label={compare.label} />
    </div>
  );
}

function CompareLink() {
  const compareLink = useAppStore((s) => s.compareLink);
  const [shown, setShown] = useState<string | null>(null);
  const show = () => {
    const { link, reason } = compareLink();
    setShown(link === null ? `No link: ${reason}.` : new URL(link, document.baseURI).href);
  };
  return (
    <p className="hint cmp-link">
      <button type="button" onClick={show}>
        Link to this comparison
      </button>{' '}
      {shown ? (
        <output className="mono" aria-label="Comparison link">
          {shown}
        </output>
      ) : null}
    </p>
  );
}

function linePoints(curve: CurveData, steps: number, max: number): string {
  return curve.buckets
    .map((b, i) => {
      const x = (b.from / Math.max(1, steps)) * CURVE_W;
      const y = CURVE_H - 4 - (max > 0 ? (b.bytesMax / max) * (CURVE_H - 8) : 0);
      return `${i === 0 ? 'M' : 'L'}${x.toFixed(1)} ${y.toFixed(1)}`;
    })
    .join(' ');
}

function CurvesOverlay({ other, step, otherStep, commonPrefix }: { other: number; step: number; otherStep: number; commonPrefix: number }) {
  const ready = useAppStore(selectIsReady);
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  const a = useRemote<CurveData>(ready ? `${sessionKey}|cmp-curve|a` : null, () => client.curve({ session, buckets: 300 }));
  const b = useRemote<CurveData>(ready ? `${sessionKey}|cmp-curve|b|${other}` : null, () => client.curve({ session: other, buckets: 300 }));
  if (!a.data || !b.data) return null;
  const steps = Math.max(a.data.steps, b.data.steps);
  const max = Math.max(a.data.bytesMax, b.data.bytesMax);
  const x = (k: number) => (k / Math.max(1, steps)) * CURVE_W;
  return (
    <figure className="cmp-curves">
      <svg
        viewBox={`0 0 ${CURVE_W} ${CURVE_H}`}
        width="100%"
        height={CURVE_H}
        preserveAspectRatio="none"
        role="img"
        aria-label="The two context curves overlaid, with where they diverge and the cursor"
      >
        <rect className="cmp-common" x={0} y={0} width={x(commonPrefix)} height={CURVE_H} />
        <path className="cmp-curve-a" d={linePoints(a.data, steps, max)} vectorEffect="non-scaling-stroke" />
        <path className="cmp-curve-b" d={linePoints(b.data, steps, max)} vectorEffect="non-scaling-stroke" />
        <line className="cmp-cursor" x1={x(step)} x2={x(step)} y1={0} y2={CURVE_H} vectorEffect="non-scaling-stroke" />
        {otherStep !== step ? (
          <line className="cmp-cursor-b" x1={x(otherStep)} x2={x(otherStep)} y1={0} y2={CURVE_H} vectorEffect="non-scaling-stroke" />
        ) : null}
      </svg>
      <figcaption className="hint">
        <span className="lg cmp-lg-a">━ this log</span> <span className="lg cmp-lg-b">━ the other</span>{' '}
        <span className="lg cmp-lg-common">▒ common prefix</span> · bytes of the derived messages per step, one scale for both
      </figcaption>
    </figure>
  );
}

function MessageDiff({ other, step, otherStep, label }: { other: number; step: number; otherStep: number; label: string }) {
  const ready = useAppStore(selectIsReady);
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  const key = ready ? `${sessionKey}|cmp-view|${other}|${step}|${otherStep}` : null;
  const remote = useRemote<CompareViewData>(key, () => client.compareView({ session, other, step, otherStep }));
  const v = remote.data;
  if (!v) return null;
  const changed = v.rows.filter((r) => r.kind !== 'same').length;
  return (
    <section className="cmp-diff" aria-label="Model views side by side">
      <h3 className="cmp-h">
        Model views: {plural(v.a.messages, 'message')} and {plural(v.b.messages, 'message')},{' '}
        {changed === 0 ? 'identical' : `${plural(changed, 'row')} differ`}
        {v.clipped ? ' (the first 2,000 of each compared)' : ''}
      </h3>
      <table className="cmp-table">
        <thead>
          <tr>
            <th scope="col">This log (step {formatCount(v.a.step)})</th>
            <th scope="col">
              {label} (step {formatCount(v.b.step)})
            </th>
          </tr>
        </thead>
        <tbody>
          {v.rows.map((r, i) => (
            <tr key={i} className={`cmp-row is-${r.kind}`} data-kind={r.kind}>
              {[r.a, r.b].map((m, side) => (
                <td key={side}>
                  {m ? (
                    <>
                      <span className="mono cmp-seq">seq {m.seq}</span> <span className="cmp-role">{m.role}</span>{' '}
                      <span className="cmp-text">{m.text}</span>
                    </>
                  ) : (
                    <span className="hint">—</span>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Deltas({ c, label }: { c: SessionComparison; label: string }) {
  const shown = c.deltas.slice(0, 200);
  return (
    <section className="cmp-deltas" aria-label="Per-request deltas">
      <h3 className="cmp-h">
        Per-request deltas ({label} − this log): {plural(c.deltas.length, 'request pair')} differ
        {c.deltas.length > shown.length ? `, the first ${shown.length} listed` : ''}
      </h3>
      {shown.length > 0 ? (
        <table className="cmp-table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Seq (this / other)</th>
              <th scope="col">Tokens sent Δ</th>
              <th scope="col">Reused prefix Δ</th>
              <th scope="col">Cache reads Δ</th>
              <th scope="col">Input Δ</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((d) => (
              <tr key={d.index} data-index={d.index}>
                <th scope="row">{d.index + 1}</th>
                <td className="mono">
                  {d.a?.seq ?? '—'} / {d.b?.seq ?? '—'}
                </td>
                <td className="mono">{signed(d.tokens)}</td>
                <td className="mono">{signed(d.reusedTokens)}</td>
                <td className="mono">{signed(d.cacheRead)}</td>
                <td className="mono">{signed(d.input)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
