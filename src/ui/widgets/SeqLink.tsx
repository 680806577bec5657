/** A button that selects an event by seq: the "links" of the inspector and diagnostics. */
export interface SeqLinkProps {
  seq: number;
  onSelect: (seq: number) => void;
  /** Spoken context, e.g. "source". */
  label?: string;
}

export function SeqLink({ seq, onSelect, label }: SeqLinkProps) {
  return (
    <button
      type="button"
      className="seq-link mono"
      onClick={() => onSelect(seq)}
      aria-label={label ? `${label} seq ${seq}` : `seq ${seq}`}
      title={`Select seq ${seq}`}
    >
      {seq}
    </button>
  );
}
