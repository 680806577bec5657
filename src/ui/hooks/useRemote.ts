/**
 * Fetches what a component shows from the engine, keyed by a string that names the request
 * (session, step, window…). Latest-wins per component: while the key changes quickly (scrolling,
 * scrubbing) at most one request is in flight and one pending. The last answer stays visible
 * while the next one loads, tagged with the key it belongs to, so callers can tell stale data.
 * Answers are applied in a transition (see `apply` below).
 */
import { startTransition, useEffect, useRef, useState } from 'react';
import { createLatestWins } from '../../client/latestWins';
import type { LatestWins } from '../../client/latestWins';
import { errorMessage, isAbortError } from '../../client/errors';

export interface RemoteData<T> {
  data: T | null;
  /** The key `data` was fetched for. */
  dataKey: string | null;
  error: string | null;
  /** True while the answer for the current key has not arrived. */
  loading: boolean;
}

interface Answer<T> {
  key: string | null;
  data: T | null;
  error: string | null;
}

/**
 * Answers of the engine are applied in a transition: answers that arrive close together (a seek
 * or a scroll brings rows, brackets, details…) render together, in slices that yield to input
 * and to the surface (which is not fetched through here, see panels/surface/useSurfaceFeed.ts),
 * so no render of them is a long task.
 */
const apply = (update: () => void): void => startTransition(update);

/**
 * @param key names the request; `null` fetches nothing and clears the data.
 * @param fetcher reads the engine; the latest one is used when the key changes.
 */
export function useRemote<T>(key: string | null, fetcher: () => Promise<T>): RemoteData<T> {
  const [answer, setAnswer] = useState<Answer<T>>({ key: null, data: null, error: null });
  const fetcherRef = useRef(fetcher);
  const lanes = useRef<LatestWins | null>(null);
  const alive = useRef(true);

  useEffect(() => {
    fetcherRef.current = fetcher;
  });

  useEffect(() => {
    if (key === null) return;
    let current = true;
    lanes.current ??= createLatestWins();
    lanes.current
      .run('request', () => fetcherRef.current())
      .then(
        (data) => {
          apply(() => {
            if (alive.current) setAnswer({ key, data, error: null });
          });
        },
        (error: unknown) => {
          if (isAbortError(error)) return;
          apply(() => {
            if (alive.current && current) setAnswer((previous) => ({ key, data: previous.data, error: errorMessage(error) }));
          });
        },
      );
    return () => {
      current = false;
    };
  }, [key]);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      lanes.current?.cancelPending();
    };
  }, []);

  if (key === null) return { data: null, dataKey: null, error: null, loading: false };
  return {
    data: answer.data,
    dataKey: answer.key,
    error: answer.key === key ? answer.error : null,
    loading: answer.key !== key,
  };
}
