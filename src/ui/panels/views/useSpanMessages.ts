/**
 * The messages a shadowed span shows. Its row carries only the preview (a compaction can stand
 * for thousands of messages, and the rows are re-fetched at every step); once the user expands
 * the span, the rest are fetched from the engine page by page, and only as far as shown.
 */
import { createContext, useContext, useState } from 'react';
import type { ViewMessage, ViewRow } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectClient, selectSessionId, selectSessionKey, selectStep } from '../../../store/selectors';
import { useRemote } from '../../hooks/useRemote';

/**
 * Fetched pages by row (`sessionKey|seq`) and page start. A row's messages do not change while it
 * is on the surface (a replacement stands for appends applied before it), so pages outlive the
 * step and the span's own mount: the rows are re-rendered at every step (briefly as placeholders
 * while their window loads), and an open span must not fetch its pages again each time.
 */
export class SpanPageCache {
  private readonly rows = new Map<string, Map<number, ViewMessage[]>>();

  /** The page of `owner` starting at `start`, if fetched. */
  get(owner: string, start: number): ViewMessage[] | undefined {
    return this.rows.get(owner)?.get(start);
  }

  set(owner: string, start: number, messages: ViewMessage[]): void {
    let pages = this.rows.get(owner);
    if (!pages) {
      // Rows of other sessions and long-gone steps: a bound keeps the cache small.
      if (this.rows.size >= 256) this.rows.clear();
      pages = new Map();
      this.rows.set(owner, pages);
    }
    pages.set(start, messages);
  }
}

/** The panel's page cache (TwoViews provides one; without it each span keeps its own). */
export const SpanPages = createContext<SpanPageCache | null>(null);

export interface SpanMessages {
  /** The first `shown` messages; while they load, those already here (at least the preview). */
  messages: ViewMessage[];
  /** True while some of the messages to show are on their way. */
  loading: boolean;
  /** Why the last fetch failed, fit to show. */
  error: string | null;
}

/**
 * @param row the row, with its preview and `transcriptTotal`
 * @param shown how many messages the span shows
 * @param pageSize messages per request after the preview (the span's "show more" step, so one
 *   click costs one request)
 */
export function useSpanMessages(row: ViewRow, shown: number, pageSize: number): SpanMessages {
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  const step = useAppStore(selectStep);
  const [own] = useState(() => new SpanPageCache());
  const cache = useContext(SpanPages) ?? own;
  const seq = row.model.seq;
  const preview = row.transcript;
  const want = Math.min(shown, row.transcriptTotal);
  const owner = `${sessionKey}|${seq}`;
  const starts: number[] = [];
  for (let start = preview.length; start < want; start += pageSize) starts.push(start);
  const pages = starts.map((start) => cache.get(owner, start));
  const complete = pages.every((page) => page !== undefined);

  // Fetches the missing pages into the cache; its answer only says they are there. The key holds
  // the step of the last attempt, and moves to the current step only after a failure: a failed
  // fetch is tried again once the step moves (not at once, and not at every step after).
  const [attempt, setAttempt] = useState(() => ({ step, failed: false }));
  const keyStep = attempt.failed && attempt.step !== step ? step : attempt.step;
  const remote = useRemote<boolean>(complete ? null : `${owner}|${want}|${keyStep}`, async () => {
    try {
      await Promise.all(
        starts.map(async (start) => {
          if (cache.get(owner, start)) return;
          const page = await client.transcript({ session, step, seq, start, count: pageSize });
          cache.set(owner, start, page.messages);
        }),
      );
    } catch (error) {
      setAttempt({ step: keyStep, failed: true });
      throw error;
    }
    setAttempt((previous) => (previous.failed ? { step: keyStep, failed: false } : previous));
    return true;
  });

  // While pages load, the span keeps the preview and the pages it has, in order.
  const messages: ViewMessage[] = [...preview];
  for (const page of pages) {
    if (page === undefined) break;
    messages.push(...page);
  }
  messages.length = Math.min(messages.length, want);
  return { messages, loading: !complete && remote.loading, error: remote.error };
}
