/**
 * One message as a chat bubble: who, which event, its state, and its blocks. Reasoning, tool
 * arguments and results are collapsible; long text is clipped with a control to expand it and,
 * when the engine clipped it, to load the full text. Everything is rendered as text.
 */
import { useCallback } from 'react';
import type { MessageBlock, ViewMessage } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectClient, selectSessionId } from '../../../store/selectors';
import { Badge } from '../../widgets/Badge';
import { ClippedText } from '../../widgets/ClippedText';
import { SeqLink } from '../../widgets/SeqLink';
import { REPLACEMENT_KIND_LABEL, STATE_LABEL, familyClass, formatCount } from '../../format';

/** Where the other half of a tool call/result pair is, by call id. */
export interface ToolIndex {
  calls: Map<string, { name: string; seq: number }>;
  results: Map<string, number>;
}

type LoadFull = (seq: number, index: number) => Promise<string>;

function useLoadFull(): LoadFull {
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  return useCallback((seq, index) => client.blockText({ session, seq, block: index }), [client, session]);
}

const preview = (text: string, n = 60): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > n ? `${line.slice(0, n)}…` : line;
};

interface BlockProps {
  block: MessageBlock;
  load: (() => Promise<string>) | undefined;
  tools: ToolIndex;
  /** Open tool arguments and results at first. */
  expanded: boolean;
  onSelect: (seq: number) => void;
}

/** Tool calls and results of a list of messages, by call id (for pairing them). */
export function toolIndexOf(messages: Iterable<ViewMessage>): ToolIndex {
  const index: ToolIndex = { calls: new Map(), results: new Map() };
  for (const message of messages) {
    for (const block of message.blocks) {
      if (!block.callId) continue;
      if (block.kind === 'tool-call') index.calls.set(block.callId, { name: block.name ?? '', seq: message.seq });
      else if (block.kind === 'tool-result' && !index.results.has(block.callId)) index.results.set(block.callId, message.seq);
    }
  }
  return index;
}

/**
 * `base` plus the tool calls and results of `messages`, which win: a span's own pair sits next
 * to it, and `base` (built from the loaded rows) does not hold the messages a span fetched.
 */
export function withToolsOf(base: ToolIndex, messages: Iterable<ViewMessage>): ToolIndex {
  const index = toolIndexOf(messages);
  for (const [id, call] of base.calls) if (!index.calls.has(id)) index.calls.set(id, call);
  for (const [id, seq] of base.results) if (!index.results.has(id)) index.results.set(id, seq);
  return index;
}

function Block({ block, load, tools, expanded, onSelect }: BlockProps) {
  const text = <ClippedText text={block.text} truncated={block.truncated} {...(load ? { loadFull: load } : {})} />;
  switch (block.kind) {
    case 'text':
      return <div className="blk blk-text">{text}</div>;
    case 'reasoning':
      return (
        <details className="blk blk-reasoning">
          <summary>Reasoning · {formatCount(block.text.length)} characters</summary>
          {text}
        </details>
      );
    case 'tool-call': {
      const result = block.callId ? tools.results.get(block.callId) : undefined;
      return (
        <div className="blk blk-tool blk-call">
          <div className="blk-tool-head">
            <span aria-hidden="true">→</span> tool call <b className="mono">{block.name}</b>
            <span className="mono muted">{block.callId}</span>
            {result === undefined ? null : (
              <span>
                result <SeqLink seq={result} onSelect={onSelect} label="result" />
              </span>
            )}
          </div>
          <details className="blk-args" open={expanded}>
            <summary>
              Arguments <span className="mono muted">{preview(block.text)}</span>
            </summary>
            <div className="mono">{text}</div>
          </details>
        </div>
      );
    }
    case 'tool-result': {
      const call = block.callId ? tools.calls.get(block.callId) : undefined;
      return (
        <div className={`blk blk-tool blk-result ${block.isError ? 'is-error' : ''}`}>
          <div className="blk-tool-head">
            <span aria-hidden="true">←</span> result
            {call ? (
              <>
                {' '}
                of <b className="mono">{call.name}</b>
              </>
            ) : null}
            <span className="mono muted">{block.callId}</span>
            {block.isError ? <span className="sev-error">✕ error</span> : null}
            {call ? (
              <span>
                call in <SeqLink seq={call.seq} onSelect={onSelect} label="call" />
              </span>
            ) : null}
          </div>
          <details className="blk-args" open={expanded || block.text.length <= 300}>
            <summary>
              Result · {formatCount(block.text.length)}
              {block.truncated ? '+' : ''} characters
            </summary>
            <div className="mono">{text}</div>
          </details>
        </div>
      );
    }
    case 'image':
      return <div className="blk blk-image">[image: {block.text}]</div>;
    case 'other':
      return <div className="blk blk-other mono">{text}</div>;
  }
}

export interface MessageViewProps {
  message: ViewMessage;
  tools: ToolIndex;
  selected: boolean;
  onSelect: (seq: number) => void;
  /** Open tool arguments and results at first (the replace inspector). */
  expanded?: boolean;
}

/** Who speaks: the role, except that a tool result (role "user" on the wire) reads as "tool". */
const speaker = (message: ViewMessage): string => (message.type === 'tool/result' ? 'tool' : (message.role ?? '—'));

export function MessageView({ message, tools, selected, onSelect, expanded = false }: MessageViewProps) {
  const loadFull = useLoadFull();
  const state = STATE_LABEL[message.state];
  const classes = [
    'msg',
    `msg-${speaker(message)}`,
    `state-${message.state}`,
    message.origin === 'replacement' ? 'msg-replacement' : '',
    selected ? 'is-selected' : '',
  ];
  return (
    <article className={classes.join(' ')} aria-label={`${message.type} ${message.seq}, ${state.text}`} data-seq={message.seq}>
      <header className="msg-head">
        <span className="msg-role" title={message.role === null ? undefined : `role: ${message.role}`}>
          {speaker(message)}
        </span>
        <SeqLink seq={message.seq} onSelect={onSelect} label={message.type} />
        <Badge tone={familyClass(message.family)}>{message.type}</Badge>
        {message.state === 'current' ? null : (
          <span className={`msg-state state-text-${message.state}`}>
            <span aria-hidden="true">{state.glyph}</span> {state.text}
          </span>
        )}
        {message.replacementKind ? (
          <Badge tone={`kind-${message.replacementKind}`}>⇄ {REPLACEMENT_KIND_LABEL[message.replacementKind]}</Badge>
        ) : null}
        {message.empty ? (
          <Badge tone="tag-empty" title="Projects to no model message">
            ∅ empty
          </Badge>
        ) : null}
      </header>
      {message.blocks.length === 0 && !message.empty ? <p className="muted msg-none">(no content)</p> : null}
      {message.blocks.map((block, i) => (
        <Block
          key={i}
          block={block}
          tools={tools}
          expanded={expanded}
          onSelect={onSelect}
          load={block.truncated ? () => loadFull(message.seq, i) : undefined}
        />
      ))}
    </article>
  );
}
