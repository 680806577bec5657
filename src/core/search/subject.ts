/**
 * What search looks at in one event: the texts a person reads (message text, tool arguments and
 * results, summaries, the labels the UI shows), the tools it names, its turn and step, and
 * whether it reports a failure. Computed from the parsed event; the strings are the event's own
 * (no copies), so a huge tool result costs no more than its parse.
 */
import { replacementKind, summarizeEvent } from '../analyze/describe';
import { REPLACEMENT_KIND_LABEL } from '../analyze/labels';
import type { ReplacementKindName } from '../analyze/labels';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Obj = Record<string, any>;
const isObject = (x: unknown): x is Obj => x !== null && typeof x === 'object' && !Array.isArray(x);

/** Search facts of one event. */
export interface EventFacts {
  /** Texts a person reads: the event's strings first, then its type, row summary and labels. */
  texts: string[];
  /** The one-line summary the timeline shows (the snippet when no text term matched). */
  summary: string;
  /** Tool names the event names (a call, the call a result answers, calls inside a message). */
  tools: string[];
  turn: number | null;
  step: number | null;
  /** The event reports a failure (see {@link reportsError}). */
  error: boolean;
  /** Kind of replacement, when the event is one (its surfaceOp is a replace). */
  replacement: ReplacementKindName | null;
}

/** Collects the string leaves of a JSON value, skipping image payloads (not readable text). */
function collectStrings(value: unknown, out: string[], depth = 0): void {
  if (typeof value === 'string') {
    if (value !== '') out.push(value);
    return;
  }
  if (depth > 64 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collectStrings(item, out, depth + 1);
    return;
  }
  if ((value as Obj).type === 'image') return;
  for (const key of Object.keys(value)) collectStrings((value as Obj)[key], out, depth + 1);
}

function blocksReportError(content: unknown): boolean {
  return Array.isArray(content) && content.some((b) => isObject(b) && b.type === 'tool-result' && b.isError === true);
}

/**
 * Whether an event reports a failure: a tool result marked `isError` or carrying `error`, a
 * failed compaction, command, turn, stream finish, retry, code dispatch or workflow.
 */
export function reportsError(event: unknown): boolean {
  if (!isObject(event)) return false;
  const d: Obj = isObject(event.data) ? event.data : {};
  switch (event.type) {
    case 'tool/result':
      return d.error !== undefined || blocksReportError(isObject(d.message) ? d.message.content : undefined);
    case 'user/message':
      return blocksReportError(d.content);
    case 'compaction/end':
      return typeof d.error === 'string' || isObject(d.error);
    case 'command/done':
      return d.kind === 'error';
    case 'turn/end':
      return isObject(d.reason) && d.reason.kind === 'error';
    case 'assistant/chunk':
      return isObject(d.chunk) && isObject(d.chunk.reason) && d.chunk.reason.kind === 'error';
    case 'llm/retry':
      return true;
    case 'tool/code-dispatch':
      return d.isError === true;
    case 'tool-workflow/run-end':
      return d.stopReason === 'error';
    case 'tool-workflow/agent-end':
      return d.outcome === 'failed';
    default:
      return false;
  }
}

/** Tool names an event names; `callName` resolves a result's call id to its call's name. */
function toolsOf(event: Obj, d: Obj, callName?: (callId: string) => string | null): string[] {
  switch (event.type) {
    case 'tool/call':
    case 'tool/code-dispatch-start':
    case 'tool/code-dispatch':
      return typeof d.name === 'string' ? [d.name] : [];
    case 'approval/asked':
      return typeof d.toolName === 'string' ? [d.toolName] : [];
    case 'tool/result': {
      const source = isObject(d.message) ? d.message.source : undefined;
      const name = isObject(source) && typeof source.callId === 'string' ? callName?.(source.callId) : null;
      return typeof name === 'string' ? [name] : [];
    }
    case 'assistant/message': {
      const content = isObject(d.message) ? d.message.content : undefined;
      if (!Array.isArray(content)) return [];
      return content
        .filter((b) => isObject(b) && b.type === 'tool-call' && typeof b.name === 'string')
        .map((b) => (b as Obj).name as string);
    }
    default:
      return [];
  }
}

/**
 * The search facts of a parsed event. `replace` says whether its surfaceOp is a replace (the
 * host knows it from its columns); `callName` finds the tool a result answers.
 */
export function eventFacts(event: unknown, replace: boolean, callName?: (callId: string) => string | null): EventFacts {
  const summary = summarizeEvent(event);
  const replacement = replace ? replacementKind(event) : null;
  if (!isObject(event)) return { texts: [summary], summary, tools: [], turn: null, step: null, error: false, replacement };
  const d: Obj = isObject(event.data) ? event.data : {};
  const texts: string[] = [];
  collectStrings(event.data, texts);
  if (typeof event.type === 'string') texts.push(event.type);
  texts.push(summary);
  if (replacement !== null && replacement !== 'other') texts.push(REPLACEMENT_KIND_LABEL[replacement]);
  return {
    texts,
    summary,
    tools: toolsOf(event, d, callName),
    turn: typeof d.turn === 'number' ? d.turn : null,
    step: typeof d.step === 'number' ? d.step : null,
    error: reportsError(event),
    replacement,
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */
