/** One row of the surface list: a node at the cursor, or a node an expanded replacement shadowed. */
import type { CSSProperties } from 'react';
import { Badge } from '../../widgets/Badge';
import { familyClass, familyOfNodeType } from '../../format';
import type { SurfaceItem } from './useSurfaceRows';

export const SURFACE_ROW_HEIGHT = 24;

export interface SurfaceRowProps {
  item: SurfaceItem;
  style: CSSProperties;
  position: number;
  count: number;
  open: boolean;
  selected: boolean;
  highlighted: boolean;
  onToggle: (item: SurfaceItem) => void;
  onSelect: (seq: number) => void;
}

export function SurfaceRow({ item, style, position, count, open, selected, highlighted, onToggle, onSelect }: SurfaceRowProps) {
  const { node, depth } = item;
  if (!node) {
    return (
      <li className="sf-row sf-loading" style={style} aria-busy="true" aria-posinset={position} aria-setsize={count}>
        <span className="sf-indent" style={{ width: depth * 14 }} />…
      </li>
    );
  }
  const expandable = node.replacement && node.shadowedCount > 0;
  const classes = [
    'sf-row',
    depth > 0 ? 'sf-shadowed' : '',
    node.replacement ? 'sf-replacement' : '',
    selected ? 'is-selected' : '',
    highlighted ? 'is-highlighted' : '',
  ].join(' ');
  return (
    <li className={classes} style={style} aria-posinset={position} aria-setsize={count} data-seq={node.seq}>
      <span className="sf-indent" style={{ width: depth * 14 }} />
      {expandable ? (
        <button
          type="button"
          className="disclosure"
          aria-expanded={open}
          aria-label={`${open ? 'Hide' : 'Show'} what ${node.seq} replaced`}
          onClick={() => onToggle(item)}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
        </button>
      ) : (
        <span className="disclosure-spacer" />
      )}
      <button type="button" className="sf-select" aria-current={selected ? 'true' : undefined} onClick={() => onSelect(node.seq)}>
        <span className="mono sf-seq">{node.seq}</span>
        <Badge tone={familyClass(familyOfNodeType(node.type))}>{node.type}</Badge>
        {node.role ? <span className="sf-role">{node.role}</span> : null}
        <span className="sf-preview">{node.preview}</span>
      </button>
      {node.replacement ? (
        <Badge tone="tag-replace" title={`Entered by a replace that shadowed ${node.shadowedCount} nodes`}>
          ⇄ replaced {node.shadowedCount}
        </Badge>
      ) : null}
      {depth > 0 ? <Badge tone="tag-shadowed">⊘ shadowed by {item.parent}</Badge> : null}
      {node.empty ? (
        <Badge tone="tag-empty" title="Projects to no model message">
          ∅ empty
        </Badge>
      ) : null}
    </li>
  );
}
