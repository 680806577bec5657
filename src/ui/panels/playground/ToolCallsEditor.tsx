/** The tool calls of an assistant-message template: name and raw arguments per call. */
import { DEFAULT_TOOL_CALL } from './templates';
import type { ToolCallDraft } from './templates';

export function ToolCallsEditor({ calls, onChange }: { calls: ToolCallDraft[]; onChange: (calls: ToolCallDraft[]) => void }) {
  const update = (index: number, change: Partial<ToolCallDraft>) => onChange(calls.map((c, i) => (i === index ? { ...c, ...change } : c)));
  return (
    <fieldset className="pg-calls">
      <legend>Tool calls</legend>
      {calls.length === 0 ? <p className="hint">No tool call: this is a plain assistant message.</p> : null}
      <ol>
        {calls.map((call, i) => (
          <li key={i} className="pg-call">
            <input
              aria-label={`Tool name ${i + 1}`}
              value={call.name}
              spellCheck={false}
              onChange={(e) => update(i, { name: e.currentTarget.value })}
            />
            <input
              aria-label={`Arguments ${i + 1}`}
              className="mono"
              value={call.arguments}
              spellCheck={false}
              onChange={(e) => update(i, { arguments: e.currentTarget.value })}
            />
            <button type="button" aria-label={`Remove tool call ${i + 1}`} onClick={() => onChange(calls.filter((_, j) => j !== i))}>
              ✕
            </button>
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => onChange([...calls, { ...DEFAULT_TOOL_CALL }])}>
        + Add tool call
      </button>
    </fieldset>
  );
}
