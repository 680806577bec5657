/**
 * The surface list as flat rows: the nodes at the cursor (fetched by window) with, under each
 * expanded replacement node, the nodes it shadowed (fetched with `shadowedBy`, recursively).
 *
 * Expansions are anchored to the top-level index of their node. Between two steps with the same
 * `replaceGeneration` the surface only gains or loses tail appends, so those indexes stay valid;
 * when the generation changes, expansions are dropped rather than guessed.
 */
import { useState } from 'react';
import type { SurfaceNode, SurfaceWindow } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectClient, selectIsReady, selectSessionIndex, selectSessionKey, selectStep } from '../../../store/selectors';
import { useRemote } from '../../hooks/useRemote';

const BLOCK = 64;
const MARGIN = 16;

export interface SurfaceItem {
  /** Null while loading. */
  node: SurfaceNode | null;
  /** 0 for nodes on the surface; deeper for the shadowed nodes of an expanded replacement. */
  depth: number;
  /** Top-level index of the row, or of the surface node it hangs under (depth > 0). */
  index: number;
  /** The replacement that shadowed it (depth > 0). */
  parent: number | null;
}

interface Expansion {
  scope: string;
  generation: number;
  /** Top-level seq → its index on the surface. */
  anchors: Map<number, number>;
  open: Set<number>;
}

const NONE: Expansion = { scope: '', generation: -1, anchors: new Map(), open: new Set() };

/** @param range top-level indexes of the rendered rows (see `itemAt(row).index`). */
export function useSurfaceRows(range: { first: number; last: number }) {
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionIndex);
  const sessionKey = useAppStore(selectSessionKey);
  const ready = useAppStore(selectIsReady);
  const step = useAppStore(selectStep);
  const [expansion, setExpansion] = useState<Expansion>(NONE);
  const [children, setChildren] = useState<{ scope: string; map: Map<number, SurfaceNode[]> }>({ scope: '', map: new Map() });

  const start = Math.max(0, Math.floor((range.first - MARGIN) / BLOCK) * BLOCK);
  const end = Math.max(start + BLOCK, Math.ceil((range.last + MARGIN + 1) / BLOCK) * BLOCK);
  const remote = useRemote<SurfaceWindow>(ready ? `${sessionKey}|${step}|${start}|${end}` : null, () =>
    client.surface(session, step, start, end - start),
  );
  const window = remote.data && remote.dataKey?.startsWith(`${sessionKey}|`) ? remote.data : null;

  const valid = window !== null && expansion.scope === sessionKey && expansion.generation === window.replaceGeneration;
  const open = valid ? expansion.open : NONE.open;
  const known = children.scope === sessionKey ? children.map : new Map<number, SurfaceNode[]>();

  const flatten = (seq: number, depth: number, index: number): SurfaceItem[] => {
    const nodes = known.get(seq);
    if (!nodes) return [{ node: null, depth, index, parent: seq }];
    return nodes.flatMap((node) => [
      { node, depth, index, parent: seq },
      ...(open.has(node.seq) ? flatten(node.seq, depth + 1, index) : []),
    ]);
  };
  const anchors = valid
    ? [...expansion.anchors]
        .map(([seq, index]) => ({ seq, index, extra: flatten(seq, 1, index) }))
        .filter((a) => a.index < (window?.total ?? 0))
        .sort((a, b) => a.index - b.index)
    : [];
  const total = window?.total ?? 0;
  const count = total + anchors.reduce((sum, a) => sum + a.extra.length, 0);

  const topItem = (index: number): SurfaceItem => ({
    node: window ? (window.nodes[index - window.start] ?? null) : null,
    depth: 0,
    index,
    parent: null,
  });
  const itemAt = (row: number): SurfaceItem => {
    let shift = 0;
    for (const anchor of anchors) {
      const at = anchor.index + shift;
      if (row <= at) return topItem(row - shift);
      if (row <= at + anchor.extra.length) return anchor.extra[row - at - 1] as SurfaceItem;
      shift += anchor.extra.length;
    }
    return topItem(row - shift);
  };

  const toggle = (item: SurfaceItem): void => {
    const seq = item.node?.seq;
    if (seq === undefined || !window) return;
    const base = valid ? expansion : { scope: sessionKey, generation: window.replaceGeneration, anchors: new Map(), open: new Set<number>() };
    const next: Expansion = { ...base, anchors: new Map(base.anchors), open: new Set(base.open) };
    if (next.open.has(seq)) {
      next.open.delete(seq);
      next.anchors.delete(seq);
    } else {
      next.open.add(seq);
      if (item.depth === 0) next.anchors.set(seq, item.index);
      if (!known.has(seq)) {
        client.shadowedBy(session, seq).then(
          (nodes) =>
            setChildren((previous) => {
              const map = new Map(previous.scope === sessionKey ? previous.map : []);
              map.set(seq, nodes);
              return { scope: sessionKey, map };
            }),
          () => {},
        );
      }
    }
    setExpansion(next);
  };

  return { window, count, itemAt, toggle, isOpen: (seq: number) => open.has(seq), error: remote.error };
}
