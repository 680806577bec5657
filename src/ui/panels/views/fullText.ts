/**
 * The full text of one content block, read from the decoded event (the views send clipped
 * block text; the inspector's `detail` has the whole event). Text only.
 */
type Loose = Record<string, unknown>;

const isObject = (x: unknown): x is Loose => typeof x === 'object' && x !== null && !Array.isArray(x);

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => {
      if (!isObject(block)) return '';
      if (block.type === 'text' || block.type === 'reasoning') return String(block.text ?? '');
      if (block.type === 'tool-result') return contentText(block.content);
      return `[${String(block.type)}]`;
    })
    .join('\n');
}

/** Block `index` of the event's message, as the views flatten it; null when it is not there. */
export function blockTextFromEvent(event: unknown, index: number): string | null {
  if (!isObject(event) || !isObject(event.data)) return null;
  const data = event.data;
  const content = isObject(data.message) ? data.message.content : data.content;
  const block = Array.isArray(content) ? (content[index] as unknown) : undefined;
  if (!isObject(block)) return block === undefined ? null : JSON.stringify(block);
  switch (block.type) {
    case 'text':
    case 'reasoning':
      return String(block.text ?? '');
    case 'tool-call':
      return String(block.arguments ?? '');
    case 'tool-result':
      return contentText(block.content);
    default:
      return JSON.stringify(block);
  }
}
