/** Text with some ranges marked (`<mark>`), as React text nodes: log content is never HTML. */
import { Fragment } from 'react';
import type { ReactNode } from 'react';

export function MarkedText({ text, marks }: { text: string; marks: ReadonlyArray<readonly [number, number]> }) {
  const parts: ReactNode[] = [];
  let at = 0;
  marks.forEach(([start, end], i) => {
    if (start < at || end <= start) return;
    if (start > at) parts.push(<Fragment key={`t${i}`}>{text.slice(at, start)}</Fragment>);
    parts.push(<mark key={`m${i}`}>{text.slice(start, end)}</mark>);
    at = end;
  });
  if (at < text.length) parts.push(<Fragment key="rest">{text.slice(at)}</Fragment>);
  return <>{parts}</>;
}
