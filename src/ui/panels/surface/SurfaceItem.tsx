/**
 * One node of the surface list, as a list item: its row (seq, type, role, preview, badges) and,
 * when it is an expanded replacement, a nested list of the nodes it shadowed, each of which may
 * expand in turn. An expanded item is as tall as its subtree: the list measures it.
 * Text only: previews are untrusted.
 */
import { memo } from 'react';
import type { CSSProperties, Ref } from 'react';
import type { SurfaceNode } from '../../../protocol/protocol';
import type { Highlight } from '../../../store/types';
import { Badge } from '../../widgets/Badge';
import { InspectReplaceButton } from '../replace/InspectReplaceButton';
import { familyClass, plural } from '../../format';
import type { Expansions } from './useExpansions';

export const SURFACE_ROW_HEIGHT = 24;

export interface SurfaceItemProps {
  /** Null while its window loads. */
  node: SurfaceNode | null;
  /** 0 for nodes on the surface; deeper for what an expanded replacement shadowed. */
  depth: number;
  /** The replacement that shadowed it (depth > 0). */
  parent: number | null;
  position: number;
  setSize: number;
  selected: boolean;
  highlighted: boolean;
  /** Only for expanded items: their subtree needs the selection, the highlight and the expansions. */
  context: SurfaceContext | null;
  onSelect: (seq: number) => void;
  expansions: Expansions;
  style?: CSSProperties;
  /** The virtual list's index and measuring ref (top-level items). */
  index?: number;
  measureRef?: Ref<HTMLLIElement> | undefined;
}

export interface SurfaceContext {
  selectedSeq: number | null;
  highlight: Highlight | null;
}

function sameNode(a: SurfaceNode | null, b: SurfaceNode | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    a.seq === b.seq &&
    a.type === b.type &&
    a.role === b.role &&
    a.preview === b.preview &&
    a.replacement === b.replacement &&
    a.shadowedCount === b.shadowedCount &&
    a.empty === b.empty
  );
}

/** Answers for other steps bring equal nodes as new objects: compare their content. */
function sameProps(a: SurfaceItemProps, b: SurfaceItemProps): boolean {
  return (
    sameNode(a.node, b.node) &&
    a.depth === b.depth &&
    a.parent === b.parent &&
    a.position === b.position &&
    a.setSize === b.setSize &&
    a.selected === b.selected &&
    a.highlighted === b.highlighted &&
    a.context === b.context &&
    a.onSelect === b.onSelect &&
    (a.context === null || a.expansions === b.expansions) &&
    a.expansions.toggle === b.expansions.toggle &&
    a.style?.top === b.style?.top &&
    a.index === b.index &&
    a.measureRef === b.measureRef
  );
}

function Children({
  seq,
  depth,
  context,
  expansions,
  onSelect,
}: {
  seq: number;
  depth: number;
  context: SurfaceContext;
  expansions: Expansions;
  onSelect: (seq: number) => void;
}) {
  const nodes = expansions.childrenOf(seq);
  if (!nodes) {
    return (
      <ul className="sf-children" aria-label={`What ${seq} replaced`}>
        <SurfaceItem
          node={null}
          depth={depth}
          parent={seq}
          position={1}
          setSize={1}
          selected={false}
          highlighted={false}
          context={null}
          onSelect={onSelect}
          expansions={expansions}
        />
      </ul>
    );
  }
  const { selectedSeq, highlight } = context;
  return (
    <ul className="sf-children" aria-label={`What ${seq} replaced`}>
      {nodes.map((node, i) => (
        <SurfaceItem
          key={node.seq}
          node={node}
          depth={depth}
          parent={seq}
          position={i + 1}
          setSize={nodes.length}
          selected={node.seq === selectedSeq}
          highlighted={highlight !== null && highlight.shadowedSeqs.includes(node.seq)}
          context={expansions.isOpen(node.seq) ? context : null}
          onSelect={onSelect}
          expansions={expansions}
        />
      ))}
    </ul>
  );
}

export const SurfaceItem = memo(function SurfaceItem({
  node,
  depth,
  parent,
  position,
  setSize,
  selected,
  highlighted,
  context,
  onSelect,
  expansions,
  style,
  index,
  measureRef,
}: SurfaceItemProps) {
  if (!node) {
    return (
      <li
        ref={measureRef}
        data-index={index}
        className="sf-node sf-loading"
        style={style}
        aria-busy="true"
        aria-posinset={position}
        aria-setsize={setSize}
      >
        <div className="sf-row">
          <span className="sf-indent" style={{ width: depth * 14 }} />…
        </div>
      </li>
    );
  }
  const expandable = node.replacement && node.shadowedCount > 0;
  const open = expandable && context !== null;
  const classes = [
    'sf-node',
    depth > 0 ? 'sf-shadowed' : '',
    node.replacement ? 'sf-replacement' : '',
    selected ? 'is-selected' : '',
    highlighted ? 'is-highlighted' : '',
  ].join(' ');
  return (
    <li
      ref={measureRef}
      data-index={index}
      className={classes}
      style={style}
      aria-posinset={position}
      aria-setsize={setSize}
      data-seq={node.seq}
    >
      <div className="sf-row">
        <span className="sf-indent" style={{ width: depth * 14 }} />
        {expandable ? (
          <button
            type="button"
            className="disclosure"
            aria-expanded={open}
            aria-label={`${open ? 'Hide' : 'Show'} what ${node.seq} replaced`}
            onClick={() => expansions.toggle(node.seq)}
          >
            <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          </button>
        ) : (
          <span className="disclosure-spacer" />
        )}
        <button type="button" className="sf-select" aria-current={selected ? 'true' : undefined} onClick={() => onSelect(node.seq)}>
          <span className="mono sf-seq">{node.seq}</span>
          <Badge tone={familyClass(node.family)}>{node.type}</Badge>
          {node.role ? <span className="sf-role">{node.role}</span> : null}
          <span className="sf-preview">{node.preview}</span>
        </button>
        {node.replacement ? (
          <Badge tone="tag-replace" title={`Entered by a replace that shadowed ${plural(node.shadowedCount, 'node')}`}>
            ⇄ replaced {node.shadowedCount}
          </Badge>
        ) : null}
        {node.replacement ? <InspectReplaceButton seq={node.seq} className="inspect-small" /> : null}
        {depth > 0 ? <Badge tone="tag-shadowed">⊘ shadowed by {parent}</Badge> : null}
        {node.empty ? (
          <Badge tone="tag-empty" title="Projects to no model message">
            ∅ empty
          </Badge>
        ) : null}
      </div>
      {open && context ? <Children seq={node.seq} depth={depth + 1} context={context} expansions={expansions} onSelect={onSelect} /> : null}
    </li>
  );
}, sameProps);
