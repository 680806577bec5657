/**
 * A static file host with Range and ETag support, in memory, for the engine's URL follower
 * (`EngineDeps.fetch`): the test sets the bytes, and every look gets a 206 of what is past its
 * offset, a 416 when nothing is, or a 304 for an unchanged ETag, as a real static host answers.
 */
import type { FollowFetch } from '../../src/worker/follow';

export interface RangeHost {
  /** The file now holds `bytes` (a growth, or a rewrite when it is not an extension). */
  set(bytes: Uint8Array): void;
  fetch: FollowFetch;
}

export function rangeHost(): RangeHost {
  let bytes: Uint8Array = new Uint8Array(0);
  let version = 0;
  return {
    set(next) {
      bytes = next;
      version++;
    },
    fetch: async (_url, init) => {
      const range = /^bytes=(\d+)-(\d*)$/.exec(init?.headers?.Range ?? '');
      const etag = `"${version}"`;
      const make = (status: number, body: Uint8Array, extra: Record<string, string> = {}) => {
        const headers: Record<string, string> = { etag, ...extra };
        return {
          ok: status < 300,
          status,
          statusText: '',
          headers: { get: (n: string) => headers[n.toLowerCase()] ?? null },
          arrayBuffer: async () => body.slice().buffer,
        };
      };
      if (init?.headers?.['If-None-Match'] === etag) return make(304, new Uint8Array(0));
      if (range === null) return make(200, bytes);
      const from = Number(range[1]);
      const to = range[2] === '' ? bytes.length - 1 : Math.min(bytes.length - 1, Number(range[2]));
      if (from >= bytes.length) return make(416, new Uint8Array(0), { 'content-range': `bytes */${bytes.length}` });
      return make(206, bytes.subarray(from, to + 1), { 'content-range': `bytes ${from}-${to}/${bytes.length}` });
    },
  };
}
