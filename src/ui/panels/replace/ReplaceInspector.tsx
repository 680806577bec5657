/**
 * The replace inspector, a dialog opened from any replacement (surface node, shadowed ranges,
 * two views, timeline marker, inspector): what was shadowed and what replaced it side by side;
 * for a prune, the content diff; for a compaction, its bracket and declared vs actual shadowed
 * seqs; sizes before and after; and the QA findings about it.
 */
import type { ReplaceDetail } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectClient, selectIsReady, selectReplaceTarget, selectSessionId, selectSessionKey } from '../../../store/selectors';
import { useRemote } from '../../hooks/useRemote';
import { Dialog } from '../../widgets/Dialog';
import { DiffView } from '../../widgets/DiffView';
import { SeqLink } from '../../widgets/SeqLink';
import { REPLACEMENT_KIND_LABEL, SEVERITY_LABEL, formatCount, plural } from '../../format';
import { MessageView, toolIndexOf } from '../views/MessageView';
import { CompactionBracket } from './CompactionBracket';
import { ReplaceLoss } from './ReplaceLoss';
import { ReplaceSizes } from './ReplaceSizes';

export const REPLACE_INSPECTOR_TITLE = 'Replace inspector';

export function ReplaceInspector() {
  const target = useAppStore(selectReplaceTarget);
  const close = useAppStore((s) => s.closeReplace);
  return (
    <Dialog open={target !== null} title={REPLACE_INSPECTOR_TITLE} onClose={close} className="dialog-wide">
      {target === null ? null : <InspectorBody seq={target} />}
    </Dialog>
  );
}

function InspectorBody({ seq }: { seq: number }) {
  const ready = useAppStore(selectIsReady);
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  const key = ready ? `${sessionKey}|${seq}` : null;
  const remote = useRemote<ReplaceDetail>(key, () => client.replaceDetail({ session, replacement: seq }));
  const detail = remote.dataKey === key ? remote.data : null;
  if (remote.error)
    return (
      <p className="panel-error">
        Could not inspect seq {seq}: {remote.error}
      </p>
    );
  if (!detail) return <p className="muted">Loading replace {seq}…</p>;
  return <Detail detail={detail} />;
}

function Detail({ detail }: { detail: ReplaceDetail }) {
  const select = useAppStore((s) => s.select);
  const goTo = useAppStore((s) => s.goTo);
  const pause = useAppStore((s) => s.pause);
  const close = useAppStore((s) => s.closeReplace);
  const tools = toolIndexOf([...detail.shadowed, detail.replacement]);
  const follow = (seq: number) => {
    select(seq);
    close();
  };
  const applyStep = () => {
    pause();
    goTo(detail.step, { select: true });
    close();
  };
  return (
    <div className="ri" aria-label={`Replace ${detail.seq}`} role="group">
      <p className="ri-title">
        <span className="mono">seq {detail.seq}</span>
        <span className={`badge kind-${detail.kind}`}>⇄ {REPLACEMENT_KIND_LABEL[detail.kind]}</span>
        <span>
          replaced{' '}
          <span className="mono">
            {detail.start}…{detail.end}
          </span>{' '}
          ({plural(detail.shadowedSeqs.length, 'node')}) at step {formatCount(detail.step)}
        </span>
        <button type="button" onClick={applyStep}>
          Go to step {formatCount(detail.step)}
        </button>
      </p>
      <div className="ri-sides">
        <section className="ri-side" aria-labelledby="ri-before">
          <h3 id="ri-before">
            <span aria-hidden="true">⊘</span> What was shadowed ({formatCount(detail.shadowed.length)})
          </h3>
          {detail.shadowed.map((message) => (
            <MessageView key={message.seq} message={message} tools={tools} selected={false} onSelect={follow} expanded />
          ))}
        </section>
        <section className="ri-side" aria-labelledby="ri-after">
          <h3 id="ri-after">
            <span aria-hidden="true">⇄</span> What replaced it
          </h3>
          <MessageView message={detail.replacement} tools={tools} selected={false} onSelect={follow} expanded />
        </section>
      </div>
      {detail.prune ? (
        <section className="ri-section" aria-labelledby="ri-diff">
          <h3 id="ri-diff">Content diff (the only part a prune may change)</h3>
          <p className="hint">
            <span className="diff-key diff-remove">− removed</span> <span className="diff-key diff-add">+ added</span>
            {detail.prune.clipped ? ' · Both texts are clipped for the diff.' : ''}
          </p>
          <DiffView parts={detail.prune.diff} label={`Diff of the content of ${detail.shadowedSeqs[0] ?? ''} and ${detail.seq}`} />
        </section>
      ) : null}
      {detail.compaction ? <CompactionBracket compaction={detail.compaction} actual={detail.shadowedSeqs} onSelect={follow} /> : null}
      <ReplaceSizes detail={detail} />
      <ReplaceLoss detail={detail} />
      <section className="ri-section" aria-labelledby="ri-findings">
        <h3 id="ri-findings">QA findings</h3>
        {detail.findings.length === 0 ? (
          <p className="muted">
            <span aria-hidden="true">✓</span> No QA finding about this replacement.
          </p>
        ) : (
          <ul className="ri-findings">
            {detail.findings.map((d, i) => (
              <li key={i} className={`sev-${d.severity}`}>
                <span aria-hidden="true">{SEVERITY_LABEL[d.severity].glyph}</span> {SEVERITY_LABEL[d.severity].text}{' '}
                <span className="mono">{d.rule}</span>
                {d.seq === null ? null : (
                  <>
                    {' '}
                    at <SeqLink seq={d.seq} onSelect={follow} label="finding at" />
                  </>
                )}
                : {d.message}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
