/**
 * One row of the two views: on the left the human-transcript messages a model message stands
 * for, on the right the model message. For a replacement the left side is the span it shadowed
 * (dimmed, linked to it); for an append both sides show the same message.
 */
import type { ViewRow } from '../../../protocol/protocol';
import { plural } from '../../format';
import { InspectReplaceButton } from '../replace/InspectReplaceButton';
import type { ToolIndex } from './MessageView';
import { MessageView } from './MessageView';
import { ShadowedSpan } from './ShadowedSpan';

export interface AlignedRowProps {
  row: ViewRow;
  shown: number;
  onShow: (seq: number, shown: number) => void;
  tools: ToolIndex;
  selectedSeq: number | null;
  /** The selected event is this row's or one it stands for (placed by the engine: the row may show only part of its span). */
  holdsSelection: boolean;
  onSelect: (seq: number) => void;
}

export function AlignedRow({ row, shown, onShow, tools, selectedSeq, holdsSelection, onSelect }: AlignedRowProps) {
  const { model, transcript } = row;
  const replacement = model.origin === 'replacement';
  const holds = holdsSelection || (selectedSeq !== null && model.seq === selectedSeq);
  return (
    <div className={`vw-row ${replacement ? 'vw-row-replace' : ''} ${holds ? 'is-selected' : ''}`} data-seq={model.seq}>
      <div className="vw-cell vw-transcript">
        <span className="sr-only">Transcript:</span>
        {replacement ? (
          <ShadowedSpan row={row} shown={shown} onShow={onShow} tools={tools} selectedSeq={selectedSeq} onSelect={onSelect} />
        ) : (
          transcript.map((message) => (
            <MessageView key={message.seq} message={message} tools={tools} selected={message.seq === selectedSeq} onSelect={onSelect} />
          ))
        )}
      </div>
      <div className={`vw-link ${replacement ? 'vw-link-replace' : ''}`} aria-hidden="true">
        {replacement ? '⇄' : '='}
      </div>
      <div className="vw-cell vw-model">
        <span className="sr-only">Model view:</span>
        <MessageView message={model} tools={tools} selected={model.seq === selectedSeq} onSelect={onSelect} />
        {replacement ? (
          <p className="vw-stands">
            <span>stands for {plural(row.transcriptTotal, 'transcript message')}</span>
            <InspectReplaceButton seq={model.seq} />
          </p>
        ) : null}
      </div>
    </div>
  );
}
