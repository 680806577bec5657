/** The relations of the selected event, as buttons that select the related seq. */
import type { EventDetail } from '../../../protocol/protocol';
import { SeqLink } from '../../widgets/SeqLink';

function LinkRow({ label, seqs, onSelect, empty }: { label: string; seqs: number[]; onSelect: (seq: number) => void; empty?: string }) {
  if (seqs.length === 0 && empty === undefined) return null;
  return (
    <div className="kv">
      <dt>{label}</dt>
      <dd>
        {seqs.length === 0 ? (
          <span className="muted">{empty}</span>
        ) : (
          seqs.map((seq, i) => (
            <span key={seq} className="link-chain">
              {i > 0 && label === 'Replaced by' ? <span aria-hidden="true"> → </span> : null}
              <SeqLink seq={seq} onSelect={onSelect} label={label.toLowerCase()} />
            </span>
          ))
        )}
      </dd>
    </div>
  );
}

export function EventLinks({ detail, onSelect }: { detail: EventDetail; onSelect: (seq: number) => void }) {
  const chain = detail.replacedBy === null ? [] : [detail.replacedBy, ...detail.replacementChain];
  return (
    <>
      <LinkRow label="Sources" seqs={detail.sourceEventSeqs} onSelect={onSelect} empty="none" />
      <LinkRow label="Cited by" seqs={detail.citedBy} onSelect={onSelect} empty="none" />
      <LinkRow label="Replaced by" seqs={chain} onSelect={onSelect} />
      <LinkRow label="Replaces" seqs={detail.replacedEventSeqs} onSelect={onSelect} />
    </>
  );
}
