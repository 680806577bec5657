/**
 * A collapsible JSON tree. Every value is rendered as a text node (log content is untrusted):
 * no HTML is ever parsed from it, and no string becomes a link or a source.
 */
import { useState } from 'react';

export interface JsonTreeProps {
  value: unknown;
  /** Name of the root, e.g. "event". */
  rootLabel?: string;
  /** Levels open at first. @default 2 */
  openDepth?: number;
  /** Longest string shown before it is clipped (with a "show all" toggle). @default 2000 */
  maxString?: number;
}

export function JsonTree({ value, rootLabel = 'root', openDepth = 2, maxString = 2000 }: JsonTreeProps) {
  return (
    <ul className="json-tree" role="tree" aria-label={`${rootLabel} as JSON`}>
      <JsonNode name={rootLabel} value={value} depth={0} openDepth={openDepth} maxString={maxString} />
    </ul>
  );
}

interface NodeProps {
  name: string;
  value: unknown;
  depth: number;
  openDepth: number;
  maxString: number;
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

/** Children shown at first under one node; more on request (a 50,000-element array stays fast). */
const PAGE = 200;

function JsonNode({ name, value, depth, openDepth, maxString }: NodeProps) {
  const [open, setOpen] = useState(depth < openDepth);
  const [shown, setShown] = useState(PAGE);
  if (!isContainer(value)) {
    return (
      <li role="treeitem" aria-selected={false} className="json-leaf">
        <span className="json-key">{name}</span>
        <span className="json-colon">: </span>
        <Scalar value={value} maxString={maxString} />
      </li>
    );
  }
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, i) => [String(i), item]) : Object.entries(value);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <li role="treeitem" aria-expanded={open} aria-selected={false} className="json-branch">
      <button type="button" className="json-toggle" onClick={() => setOpen(!open)} aria-label={`${open ? 'Collapse' : 'Expand'} ${name}`}>
        <span aria-hidden="true">{open ? '▾' : '▸'}</span>
      </button>
      <span className="json-key">{name}</span>
      <span className="json-summary"> {summary}</span>
      {open ? (
        <ul role="group">
          {entries.slice(0, shown).map(([key, item]) => (
            <JsonNode key={key} name={key} value={item} depth={depth + 1} openDepth={openDepth} maxString={maxString} />
          ))}
          {entries.length > shown ? (
            <li role="none">
              <button type="button" className="link-button" onClick={() => setShown(shown + PAGE * 5)}>
                show {Math.min(PAGE * 5, entries.length - shown)} more of {entries.length - shown}
              </button>
            </li>
          ) : null}
        </ul>
      ) : null}
    </li>
  );
}

function Scalar({ value, maxString }: { value: unknown; maxString: number }) {
  const [full, setFull] = useState(false);
  if (typeof value === 'string') {
    const clipped = !full && value.length > maxString;
    return (
      <span className="json-string">
        &quot;{clipped ? value.slice(0, maxString) : value}&quot;
        {clipped ? (
          <button type="button" className="link-button" onClick={() => setFull(true)}>
            … show all {value.length} characters
          </button>
        ) : null}
      </span>
    );
  }
  if (typeof value === 'number') return <span className="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="json-boolean">{String(value)}</span>;
  if (value === null) return <span className="json-null">null</span>;
  return <span className="json-other">{String(value)}</span>;
}
