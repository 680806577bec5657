/** A refused query: the message, and the query with the part it is about marked. */
import type { QueryErrorInfo } from '../../../protocol/protocol';
import { MarkedText } from './MarkedText';

export function QueryError({ text, error }: { text: string; error: QueryErrorInfo }) {
  const end = Math.min(text.length, Math.max(error.start + 1, error.end));
  const column = end - error.start > 1 ? `columns ${error.start + 1}–${end}` : `column ${error.start + 1}`;
  return (
    <div className="query-error" role="alert">
      <code className="query-error-text">
        <MarkedText text={text} marks={error.start < text.length ? [[error.start, end]] : []} />
      </code>
      <span>
        {column}: {error.message}
      </span>
    </div>
  );
}
