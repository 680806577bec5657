/**
 * In the transcript column: the messages a replacement stands for, dimmed and linked to it.
 * Nested replacements fold into this one bracket, with the chain shown. Long spans show their
 * first messages until expanded; the row carries only those, the rest are fetched as shown.
 */
import { useMemo, useState } from 'react';
import { VIEW_TRANSCRIPT_PREVIEW } from '../../../protocol/protocol';
import type { ViewRow } from '../../../protocol/protocol';
import { SeqLink } from '../../widgets/SeqLink';
import { REPLACEMENT_KIND_LABEL, formatCount, plural } from '../../format';
import { InspectReplaceButton } from '../replace/InspectReplaceButton';
import type { ToolIndex } from './MessageView';
import { MessageView, withToolsOf } from './MessageView';
import { useSpanMessages } from './useSpanMessages';

/**
 * Messages shown while collapsed (what a row carries, so a collapsed span needs no request),
 * and added per "show more" once expanded.
 */
export const SPAN_PREVIEW = VIEW_TRANSCRIPT_PREVIEW;
export const SPAN_PAGE = 100;

/** Nested replacements named before the chain collapses; an expand adds this many more. */
export const CHAIN_PREVIEW = 3;
export const CHAIN_PAGE = 50;

/**
 * The replacements nested in a span, outermost first. A chain of a thousand (a replacement
 * shadowing a replacement shadowing …) names its first few and says how many more there are:
 * each expand renders one more page, so a long chain costs what is shown, not its length.
 */
function NestedChain({ outer, nested, onSelect }: { outer: number; nested: readonly number[]; onSelect: (seq: number) => void }) {
  const [shown, setShown] = useState(CHAIN_PREVIEW);
  const visible = nested.slice(0, shown);
  const hidden = nested.length - visible.length;
  return (
    <p className="vw-chain">
      <span className="muted">Chain:</span> <span className="mono">{outer}</span>
      {visible.map((seq) => (
        <span key={seq} className="link-chain">
          <span aria-hidden="true"> ⊃ </span>
          <span className="sr-only">contains</span>
          <SeqLink seq={seq} onSelect={onSelect} label="nested replacement" />
          <InspectReplaceButton seq={seq} className="inspect-small">
            <span aria-hidden="true">⇄</span>
          </InspectReplaceButton>
        </span>
      ))}
      {hidden > 0 ? (
        <button type="button" className="link-button vw-chain-more" aria-expanded={false} onClick={() => setShown(shown + CHAIN_PAGE)}>
          {hidden === 1 ? '1 more nested replacement' : `${formatCount(hidden)} more nested replacements`}
          {hidden > CHAIN_PAGE ? ` (show ${formatCount(CHAIN_PAGE)})` : ''}
        </button>
      ) : null}
      {shown > CHAIN_PREVIEW && nested.length > CHAIN_PREVIEW ? (
        <button type="button" className="link-button vw-chain-more" aria-expanded={true} onClick={() => setShown(CHAIN_PREVIEW)}>
          Collapse the chain ({formatCount(nested.length)} nested)
        </button>
      ) : null}
    </p>
  );
}

export interface ShadowedSpanProps {
  row: ViewRow;
  /** How many messages are shown (SPAN_PREVIEW while collapsed). */
  shown: number;
  onShow: (seq: number, shown: number) => void;
  /** Tool calls and results of the loaded rows; the span adds those of the messages it fetched. */
  tools: ToolIndex;
  selectedSeq: number | null;
  onSelect: (seq: number) => void;
}

export function ShadowedSpan({ row, shown, onShow, tools, selectedSeq, onSelect }: ShadowedSpanProps) {
  const { model, transcriptTotal: total, nested } = row;
  const kind = model.replacementKind ?? 'other';
  const { messages, loading, error } = useSpanMessages(row, shown, SPAN_PAGE);
  const spanTools = useMemo(() => withToolsOf(tools, messages), [tools, messages]);
  // Counted from what is asked for, not from what has arrived, so the controls do not move
  // while a page loads.
  const hidden = total - Math.min(shown, total);
  return (
    <div className={`vw-span kind-${kind}`} role="group" aria-label={`Shadowed by ${model.seq}: ${plural(total, 'message')}`}>
      <div className="vw-span-head">
        <span aria-hidden="true">⊘</span>
        <span>
          {plural(total, 'message')} shadowed by{' '}
          <button
            type="button"
            className="seq-link mono"
            onClick={() => onSelect(model.seq)}
            aria-label={`Select replacement ${model.seq}`}
          >
            {model.seq}
          </button>{' '}
          <span className="muted">({REPLACEMENT_KIND_LABEL[kind]})</span>
        </span>
        <InspectReplaceButton seq={model.seq} />
      </div>
      {nested.length > 0 ? <NestedChain outer={model.seq} nested={nested} onSelect={onSelect} /> : null}
      <div className="vw-span-body" aria-busy={loading}>
        {messages.map((message) => (
          <MessageView key={message.seq} message={message} tools={spanTools} selected={message.seq === selectedSeq} onSelect={onSelect} />
        ))}
      </div>
      {loading ? (
        <p className="vw-span-loading muted" role="status">
          Loading messages…
        </p>
      ) : null}
      {error !== null ? <p className="panel-error vw-span-error">Could not load the messages: {error}</p> : null}
      {hidden > 0 || shown > SPAN_PREVIEW ? (
        <div className="vw-span-more">
          {hidden > 0 ? (
            <button type="button" className="link-button" onClick={() => onShow(model.seq, shown + SPAN_PAGE)}>
              {hidden <= SPAN_PAGE
                ? `Show all ${formatCount(total)} messages`
                : `Show ${formatCount(SPAN_PAGE)} more (${formatCount(hidden)} hidden)`}
            </button>
          ) : null}
          {shown > SPAN_PREVIEW ? (
            <button type="button" className="link-button" onClick={() => onShow(model.seq, SPAN_PREVIEW)}>
              Collapse
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
