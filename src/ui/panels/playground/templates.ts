/** The playground's templates as the form offers them, and their defaults. Pure. */
import type { PlaygroundTemplate } from '../../../protocol/protocol';

export type TemplateChoice = 'user' | 'assistant' | 'assistant-tools' | 'tool-result' | 'log-only' | 'raw';

export const TEMPLATE_CHOICES: { value: TemplateChoice; label: string }[] = [
  { value: 'user', label: 'User message' },
  { value: 'assistant', label: 'Assistant message' },
  { value: 'assistant-tools', label: 'Assistant message with tool calls' },
  { value: 'tool-result', label: 'Tool result for a pending call' },
  { value: 'log-only', label: 'Log-only event' },
  { value: 'raw', label: 'Raw JSON event' },
];

/** Log-only types offered (any type can be typed), with example data. */
export const LOG_ONLY_TYPES: Record<string, string> = {
  'turn/start': '{"turn": 1}',
  'turn/end': '{"turn": 1, "reason": {"kind": "completed"}}',
  'step/start': '{"turn": 1, "step": 1}',
  'step/end': '{"turn": 1, "step": 1}',
  'tool/call': '{"turn": 1, "step": 1, "callId": "call-1", "name": "ls", "arguments": "{}"}',
  'compaction/start': '{"compactionId": "c1", "turn": 1}',
  'compaction/end': '{"compactionId": "c1", "turn": 1}',
  'compaction/prune': '{"shadowedRange": {"start": 0, "end": 0}, "shadowedSeqs": [0], "shadowedTokenCount": 0}',
  'command/run': '{"commandId": "cmd-1", "name": "compact", "args": "", "source": {"kind": "user"}}',
  'todo/write': '{"todos": [{"content": "write tests", "status": "pending"}]}',
  'session/title': '{"title": "A playground", "messageSeqs": [], "source": {"kind": "user"}}',
};

export const RAW_EXAMPLE = JSON.stringify(
  { type: 'user/message', time: 0, data: { role: 'user', content: [{ type: 'text', text: 'Hello from raw JSON' }] }, surfaceOp: 'append' },
  null,
  1,
);

export interface ToolCallDraft {
  name: string;
  arguments: string;
}

export interface TemplateDraft {
  choice: TemplateChoice;
  text: string;
  toolCalls: ToolCallDraft[];
  callId: string;
  isError: boolean;
  type: string;
  data: string;
  json: string;
}

export const DEFAULT_TOOL_CALL: ToolCallDraft = { name: 'read_file', arguments: '{"path": "README.md"}' };

export function freshDraft(choice: TemplateChoice = 'user'): TemplateDraft {
  return {
    choice,
    text: '',
    toolCalls: choice === 'assistant-tools' ? [{ ...DEFAULT_TOOL_CALL }] : [],
    callId: '',
    isError: false,
    type: 'turn/start',
    data: LOG_ONLY_TYPES['turn/start'] ?? '{}',
    json: RAW_EXAMPLE,
  };
}

/** The template to offer, or why the draft is not complete. */
export function templateOf(draft: TemplateDraft): PlaygroundTemplate | string {
  switch (draft.choice) {
    case 'user':
      return { kind: 'user', text: draft.text };
    case 'assistant':
    case 'assistant-tools':
      return { kind: 'assistant', text: draft.text, toolCalls: draft.choice === 'assistant' ? [] : draft.toolCalls };
    case 'tool-result':
      return draft.callId === ''
        ? 'Pick the tool call this result answers.'
        : { kind: 'tool-result', callId: draft.callId, text: draft.text, isError: draft.isError };
    case 'log-only':
      return draft.type.trim() === '' ? 'Give the event a type.' : { kind: 'log-only', type: draft.type.trim(), data: draft.data };
    case 'raw':
      return { kind: 'raw', json: draft.json };
  }
}
