/**
 * Append an event from a template: user message, assistant message (with or without tool
 * calls), a tool result for a pending call, a log-only event by type with JSON data, or raw
 * JSON. The engine validates the candidate; a refusal is shown by the playground panel.
 */
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import type { PlaygroundState } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectPlaygroundBusy } from '../../../store/selectors';
import { LOG_ONLY_TYPES, TEMPLATE_CHOICES, freshDraft, templateOf } from './templates';
import type { TemplateChoice, TemplateDraft } from './templates';
import { ToolCallsEditor } from './ToolCallsEditor';

export function TemplateForm({ playground }: { playground: PlaygroundState }) {
  const offer = useAppStore((s) => s.offer);
  const busy = useAppStore(selectPlaygroundBusy);
  const [draft, setDraft] = useState<TemplateDraft>(() => freshDraft());
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const patch = (change: Partial<TemplateDraft>) => {
    setProblem(null);
    setDraft((d) => ({ ...d, ...change }));
  };
  const pending = playground.pendingCalls;
  const callId = draft.callId !== '' && pending.some((p) => p.callId === draft.callId) ? draft.callId : (pending[0]?.callId ?? '');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const template = templateOf({ ...draft, callId });
    if (typeof template === 'string') {
      setProblem(template);
      return;
    }
    const result = await offer(template);
    // Accepted: start the next event from the same template, without the text.
    if (result?.ok) setDraft((d) => ({ ...freshDraft(d.choice), type: d.type, data: d.data, json: d.json }));
  };

  return (
    <form className="pg-form" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Append an event</h3>
      <label className="pg-field">
        <span>Template</span>
        <select value={draft.choice} onChange={(e) => patch(freshDraft(e.currentTarget.value as TemplateChoice))}>
          {TEMPLATE_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      {draft.choice === 'tool-result' ? (
        pending.length === 0 ? (
          <p className="hint">No tool call is waiting for a result: append an assistant message with a tool call first.</p>
        ) : (
          <label className="pg-field">
            <span>For call</span>
            <select value={callId} onChange={(e) => patch({ callId: e.currentTarget.value })}>
              {pending.map((p) => (
                <option key={p.callId} value={p.callId}>
                  {p.name} · {p.callId}
                </option>
              ))}
            </select>
          </label>
        )
      ) : null}
      {draft.choice === 'log-only' ? (
        <>
          <label className="pg-field">
            <span>Type</span>
            <input
              list={`${id}-types`}
              value={draft.type}
              spellCheck={false}
              onChange={(e) => {
                const type = e.currentTarget.value;
                const example = LOG_ONLY_TYPES[type];
                patch(example !== undefined && draft.data === (LOG_ONLY_TYPES[draft.type] ?? '{}') ? { type, data: example } : { type });
              }}
            />
            <datalist id={`${id}-types`}>
              {Object.keys(LOG_ONLY_TYPES).map((type) => (
                <option key={type} value={type} />
              ))}
            </datalist>
          </label>
          <label className="pg-field">
            <span>Data (JSON)</span>
            <textarea
              className="mono"
              rows={3}
              spellCheck={false}
              value={draft.data}
              onChange={(e) => patch({ data: e.currentTarget.value })}
            />
          </label>
        </>
      ) : null}
      {draft.choice === 'raw' ? (
        <label className="pg-field">
          <span>Event (JSON; seq is filled in when absent)</span>
          <textarea
            className="mono"
            rows={6}
            spellCheck={false}
            value={draft.json}
            onChange={(e) => patch({ json: e.currentTarget.value })}
          />
        </label>
      ) : null}
      {draft.choice === 'user' || draft.choice === 'assistant' || draft.choice === 'assistant-tools' || draft.choice === 'tool-result' ? (
        <label className="pg-field">
          <span>{draft.choice === 'tool-result' ? 'Result text' : 'Text'}</span>
          <textarea rows={3} value={draft.text} onChange={(e) => patch({ text: e.currentTarget.value })} />
        </label>
      ) : null}
      {draft.choice === 'assistant-tools' ? (
        <ToolCallsEditor calls={draft.toolCalls} onChange={(toolCalls) => patch({ toolCalls })} />
      ) : null}
      {draft.choice === 'tool-result' ? (
        <label className="check">
          <input type="checkbox" checked={draft.isError} onChange={(e) => patch({ isError: e.currentTarget.checked })} /> The tool failed
          (isError)
        </label>
      ) : null}
      {problem ? <p className="sev-error">{problem}</p> : null}
      <button type="submit" className="primary" disabled={busy || (draft.choice === 'tool-result' && pending.length === 0)}>
        Offer event (seq {playground.nextSeq})
      </button>
    </form>
  );
}
