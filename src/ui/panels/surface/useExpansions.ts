/**
 * Which replacement nodes of the surface are expanded, and what they shadowed (fetched with
 * `shadowedBy` on first expansion, recursively for nested replacements). Keyed by seq, so an
 * expanded node stays expanded while it is on the surface, at any step; a new session starts
 * with nothing expanded.
 */
import { useCallback, useMemo, useState } from 'react';
import type { SurfaceNode } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectClient, selectSessionId, selectSessionKey } from '../../../store/selectors';

interface State {
  scope: string;
  open: ReadonlySet<number>;
  children: ReadonlyMap<number, SurfaceNode[]>;
}

export interface Expansions {
  isOpen(seq: number): boolean;
  /** The nodes `seq` shadowed directly, or undefined while they load. */
  childrenOf(seq: number): SurfaceNode[] | undefined;
  toggle(seq: number): void;
}

const EMPTY: State = { scope: '', open: new Set(), children: new Map() };

export function useExpansions(): Expansions {
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const scope = useAppStore(selectSessionKey);
  const [state, setState] = useState<State>(EMPTY);
  const current = state.scope === scope ? state : { ...EMPTY, scope };

  const { open, children } = current;
  const toggle = useCallback(
    (seq: number) => {
      const opening = !open.has(seq);
      setState((previous) => {
        const base = previous.scope === scope ? previous : { ...EMPTY, scope };
        const next = new Set(base.open);
        if (next.has(seq)) next.delete(seq);
        else next.add(seq);
        return { ...base, open: next };
      });
      if (!opening || children.has(seq)) return;
      client.shadowedBy({ session, replacement: seq }).then(
        (nodes) =>
          setState((previous) => {
            if (previous.scope !== scope) return previous;
            const map = new Map(previous.children);
            map.set(seq, nodes);
            return { ...previous, children: map };
          }),
        () => {},
      );
    },
    [client, session, scope, open, children],
  );

  return useMemo(
    () => ({
      isOpen: (seq: number) => open.has(seq),
      childrenOf: (seq: number) => children.get(seq),
      toggle,
    }),
    [open, children, toggle],
  );
}
