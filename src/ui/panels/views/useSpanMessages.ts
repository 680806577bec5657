/**
 * The messages a shadowed span shows. Its row carries only the preview (a compaction can stand
 * for thousands of messages, and the rows are re-fetched at every step); once the user expands
 * the span, the rest are fetched from the engine page by page, and only as far as shown.
 */
import { useMemo, useRef } from 'react';
import type { ViewMessage, ViewRow } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectClient, selectSessionIndex, selectSessionKey, selectStep } from '../../../store/selectors';
import { useRemote } from '../../hooks/useRemote';

export interface SpanMessages {
  /** The first `shown` messages; while they load, those already here (at least the preview). */
  messages: ViewMessage[];
  /** True while some of the messages to show are on their way. */
  loading: boolean;
  /** Why the last fetch failed, fit to show. */
  error: string | null;
}

/** An answer, tagged with the row it belongs to (to keep it on screen while the next step loads). */
interface Loaded {
  owner: string;
  messages: ViewMessage[];
}

/**
 * @param row the row, with its preview and `transcriptTotal`
 * @param shown how many messages the span shows
 * @param pageSize messages per request after the preview (the span's "show more" step, so one
 *   click costs one request)
 */
export function useSpanMessages(row: ViewRow, shown: number, pageSize: number): SpanMessages {
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionIndex);
  const sessionKey = useAppStore(selectSessionKey);
  const step = useAppStore(selectStep);
  const seq = row.model.seq;
  const preview = row.transcript;
  const want = Math.min(shown, row.transcriptTotal);
  const owner = `${sessionKey}|${seq}`;
  const base = `${owner}|${step}`;
  // Pages already fetched at this step, so "show more" asks only for the next one. Read and
  // written by the fetcher only, never during render.
  const pages = useRef<{ base: string; byStart: Map<number, ViewMessage[]> }>({ base: '', byStart: new Map() });

  const remote = useRemote<Loaded>(want > preview.length ? `${base}|${want}` : null, async () => {
    if (pages.current.base !== base) pages.current = { base, byStart: new Map() };
    const cache = pages.current.byStart;
    const starts: number[] = [];
    for (let start = preview.length; start < want; start += pageSize) starts.push(start);
    const fetched = await Promise.all(
      starts.map(async (start) => {
        const cached = cache.get(start);
        if (cached) return cached;
        const page = await client.transcript(session, step, seq, start, pageSize);
        cache.set(start, page.messages);
        return page.messages;
      }),
    );
    return { owner, messages: [...preview, ...fetched.flat()].slice(0, want) };
  });

  // While a step or a page loads, the span keeps what it had for this row: a row's messages do
  // not change while it is on the surface, so they are right, only possibly fewer. Loading is
  // reported only while some are missing, so an expanded span does not blink at every step.
  const kept = want > preview.length && remote.data?.owner === owner ? remote.data.messages : preview;
  const messages = useMemo(() => kept.slice(0, want), [kept, want]);
  return { messages, loading: remote.loading && messages.length < want, error: remote.error };
}
