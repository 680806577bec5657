/**
 * The selected event: where it is in the file, its state at the cursor, its relations as links,
 * its diagnostics, and the decoded event as a collapsible JSON tree (text only). An event too
 * large to send whole arrives clipped (`EventDetail.clipped`); the inspector says so and offers
 * the whole raw line as a download.
 */
import { DETAIL_RAW_LIMIT } from '../../../protocol/protocol';
import type { EventDetail } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectClient, selectExporting, selectIsReady, selectSession, selectSessionId, selectSessionKey } from '../../../store/selectors';
import { useDeferredCursor } from '../../hooks/useDeferredCursor';
import { useRemote } from '../../hooks/useRemote';
import { Badge } from '../../widgets/Badge';
import { EmptyState } from '../../widgets/EmptyState';
import { JsonTree } from '../../widgets/JsonTree';
import { Panel } from '../../widgets/Panel';
import { SEVERITY_LABEL, STATE_LABEL, formatCount, formatIsoTime } from '../../format';
import { InspectReplaceButton } from '../replace/InspectReplaceButton';
import { EventLinks } from './EventLinks';
import { InspectorSessionLinks } from '../sessions/StoreLinks';

/**
 * Characters of the raw line rendered (a longer `<pre>` makes layout slow): what the engine sends
 * at most, `DETAIL_RAW_LIMIT`, by definition of that limit.
 */
const RAW_LIMIT = DETAIL_RAW_LIMIT;

/** How much of the raw line the raw pane shows: its first `shown` of `total` characters. */
function rawShown(detail: EventDetail): { shown: number; total: number } {
  return { shown: Math.min(detail.raw.length, RAW_LIMIT), total: detail.clipped?.rawLength ?? detail.raw.length };
}

/** The notice of an event that arrived clipped, with the way to get all of it. */
function ClippedNotice({ detail }: { detail: EventDetail }) {
  const exporting = useAppStore(selectExporting);
  const exportEvent = useAppStore((s) => s.exportEvent);
  const clipped = detail.clipped;
  if (!clipped) return null;
  // The figure the raw pane shows, not what arrived: the pane renders only the start of that.
  const { shown, total } = rawShown(detail);
  return (
    <div className="inspector-clipped" role="note" aria-label="Clipped event">
      <span>
        <b>clipped:</b> showing {formatCount(shown)} of {formatCount(total)} characters of this event&apos;s raw line
        {clipped.eventClipped ? ', and its long strings are shortened in the tree below' : ''}. Save it to get all of it.
      </span>
      <button type="button" disabled={exporting !== null} onClick={() => void exportEvent(detail.seq)}>
        {exporting === 'event' ? 'Saving…' : '⤓ Save full event'}
      </button>
    </div>
  );
}

function envelopeOf(event: unknown): Record<string, unknown> | null {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return null;
  return event as Record<string, unknown>;
}

function Detail({ detail }: { detail: EventDetail }) {
  const select = useAppStore((s) => s.select);
  const timeKind = useAppStore((s) => selectSession(s)?.time.kind ?? 'clock');
  const envelope = envelopeOf(detail.event);
  const type = typeof envelope?.type === 'string' ? envelope.type : '(no type)';
  const state = STATE_LABEL[detail.state];
  const surfaceOp = envelope && 'surfaceOp' in envelope ? JSON.stringify(envelope.surfaceOp) : null;
  return (
    <div className="inspector">
      <p className="inspector-title">
        <span className="mono">seq {detail.seq}</span>
        <Badge tone="type">{type}</Badge>
        <Badge tone={`state-badge state-${detail.state}`}>
          <span aria-hidden="true">{state.glyph}</span> {state.text}
        </Badge>
        {detail.replacedEventSeqs.length > 0 ? <InspectReplaceButton seq={detail.seq} /> : null}
        {detail.replacedBy !== null ? (
          <InspectReplaceButton seq={detail.replacedBy}>
            <span aria-hidden="true">⇄</span> Inspect replace {detail.replacedBy}
          </InspectReplaceButton>
        ) : null}
      </p>
      <dl className="kvs">
        <div className="kv">
          <dt>Location</dt>
          <dd className="mono">
            line {formatCount(detail.line)} · byte {formatCount(detail.byte)}
            {detail.member >= 0 ? ` · packed member ${detail.member}` : ''} · index {formatCount(detail.index)}
          </dd>
        </div>
        {envelope && typeof envelope.time === 'number' ? (
          <div className="kv">
            <dt>Time</dt>
            <dd className="mono" title={timeKind === 'clock' ? formatIsoTime(envelope.time) : undefined}>
              {envelope.time}
              {timeKind === 'clock' && formatIsoTime(envelope.time) !== '' ? ` · ${formatIsoTime(envelope.time)}` : ''}
              {timeKind === 'clock' ? '' : " · not a clock time (this log's times are synthetic)"}
            </dd>
          </div>
        ) : null}
        {surfaceOp !== null ? (
          <div className="kv">
            <dt>surfaceOp</dt>
            <dd className="mono">{surfaceOp}</dd>
          </div>
        ) : null}
        <EventLinks detail={detail} onSelect={select} />
        <InspectorSessionLinks raw={detail.raw} event={detail.event} />
      </dl>
      {detail.diagnostics.length > 0 ? (
        <ul className="inspector-diagnostics" aria-label="Diagnostics of this event">
          {detail.diagnostics.map((d, i) => (
            <li key={i} className={`sev-${d.severity}`}>
              <span aria-hidden="true">{SEVERITY_LABEL[d.severity].glyph}</span> {SEVERITY_LABEL[d.severity].text}{' '}
              <span className="mono">{d.rule}</span>: {d.message}
            </li>
          ))}
        </ul>
      ) : null}
      <ClippedNotice detail={detail} />
      <JsonTree value={detail.event} rootLabel="event" openDepth={3} />
      <RawLine detail={detail} />
    </div>
  );
}

function RawLine({ detail }: { detail: EventDetail }) {
  const { shown, total } = rawShown(detail);
  return (
    <details className="raw">
      <summary>Raw line</summary>
      {shown < total ? (
        <p className="muted raw-clipped">
          clipped: showing {formatCount(shown)} of {formatCount(total)} characters
        </p>
      ) : null}
      <pre className="mono">{shown < total ? `${detail.raw.slice(0, shown)}…` : detail.raw}</pre>
    </details>
  );
}

export function Inspector() {
  const ready = useAppStore(selectIsReady);
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  // Follows a seek a moment after the surface (see useDeferredCursor).
  const { selectedSeq: seq, step } = useDeferredCursor();
  const key = ready && seq !== null ? `${sessionKey}|${seq}|${step}` : null;
  const remote = useRemote<EventDetail>(key, () => client.detail({ session, seq: seq ?? 0, step }));
  const detail = remote.data && remote.data.seq === seq && remote.dataKey?.startsWith(`${sessionKey}|`) ? remote.data : null;

  let body;
  if (!ready) body = <EmptyState title="No log loaded" />;
  else if (seq === null)
    body = (
      <EmptyState title="Nothing selected" icon="◎">
        Select an event in the timeline or the surface.
      </EmptyState>
    );
  else if (remote.error)
    body = (
      <p className="panel-error">
        Could not read seq {seq}: {remote.error}
      </p>
    );
  else if (!detail) body = <p className="muted pad">Loading seq {seq}…</p>;
  else body = <Detail detail={detail} />;
  return <Panel title="Inspector">{body}</Panel>;
}
