/**
 * Reading a followed source again: only what it gained. A URL is asked with
 * `Range: bytes=<size>-` (and its validators, so an unchanged file costs a 304); a server that
 * ignores ranges sends the whole file, which is compared with what is held. A file is sliced
 * past the size already read. Either way the bytes go to the {@link GrowingInput}, which decides
 * what is complete and whether the source was rewritten.
 */
import { HEAD_BYTES } from '../core/analyze/growing';
import type { GrowingInput, Growth } from '../core/analyze/growing';

/** The part of a fetch response a follower reads. */
export interface FollowResponse {
  ok: boolean;
  status: number;
  statusText: string;
  headers?: { get(name: string): string | null };
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** A fetch that can send request headers. */
export type FollowFetch = (url: string, init?: { headers?: Record<string, string>; cache?: 'no-store' }) => Promise<FollowResponse>;

/** What a URL follower remembers between looks. */
export interface UrlSource {
  url: string;
  etag: string | null;
  lastModified: string | null;
  /** False once the server answered a range request with the whole file. */
  ranged: boolean;
  /** The note about range support, said once. */
  rangeNoted: boolean;
}

/** A growth, and a note about the source itself (range support) to say with it. */
export interface SourceGrowth {
  growth: Growth;
  note: string | null;
}

/** Whether `url` is on the page's (or worker's) own origin; true where there is no location (Node). */
function sameOrigin(url: string): boolean {
  const here = (globalThis as { location?: { origin?: string; href?: string } }).location;
  if (here?.origin === undefined) return true;
  try {
    return new URL(url, here.href).origin === here.origin;
  } catch {
    return false;
  }
}

function header(response: FollowResponse, name: string): string | null {
  return response.headers?.get(name) ?? null;
}

/** The total size in a `Content-Range` header (`bytes a-b/N` or `bytes *\/N`), else null. */
export function contentRangeTotal(value: string | null): number | null {
  const match = value === null ? null : /\/(\d+)\s*$/.exec(value);
  return match ? Number(match[1]) : null;
}

async function bytesOf(response: FollowResponse): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

/** Ask the URL again and hand what it gained to `input`. */
export async function growFromUrl(input: GrowingInput, source: UrlSource, fetcher: FollowFetch): Promise<SourceGrowth> {
  const validators: Record<string, string> = {};
  // `If-None-Match` and `If-Modified-Since` are not CORS-safelisted headers: sent to another
  // origin they need a preflight, which a plain static host does not answer. There a simple
  // `Range` (safelisted) does the job alone: an unchanged file answers 416.
  if (sameOrigin(source.url)) {
    if (source.etag !== null) validators['If-None-Match'] = source.etag;
    else if (source.lastModified !== null) validators['If-Modified-Since'] = source.lastModified;
  }
  const remember = (response: FollowResponse): void => {
    source.etag = header(response, 'ETag') ?? source.etag;
    source.lastModified = header(response, 'Last-Modified') ?? source.lastModified;
  };
  const whole = async (): Promise<SourceGrowth> => {
    const response = await fetcher(source.url, { cache: 'no-store' });
    if (!response.ok) throw new Error(`could not fetch ${source.url}: HTTP ${response.status} ${response.statusText}`);
    remember(response);
    return { growth: await input.replace(await bytesOf(response)), note: rangeNote(source) };
  };
  if (!source.ranged) {
    const probe = await fetcher(source.url, { cache: 'no-store', headers: validators });
    if (probe.status === 304) return { growth: await input.append(new Uint8Array(0)), note: null };
    if (!probe.ok) throw new Error(`could not fetch ${source.url}: HTTP ${probe.status} ${probe.statusText}`);
    remember(probe);
    return { growth: await input.replace(await bytesOf(probe)), note: rangeNote(source) };
  }
  const size = input.size;
  const response = await fetcher(source.url, { cache: 'no-store', headers: { ...validators, Range: `bytes=${size}-` } });
  if (response.status === 304) return { growth: await input.append(new Uint8Array(0)), note: null };
  if (response.status === 416) {
    // Nothing at or past `size`: unchanged, or shorter than before.
    const total = contentRangeTotal(header(response, 'Content-Range'));
    if (total !== null && total >= size) return { growth: await input.append(new Uint8Array(0)), note: null };
    return whole();
  }
  if (response.status === 200) {
    // The server ignored the range: it sent the whole file, now and from now on.
    source.ranged = false;
    remember(response);
    return { growth: await input.replace(await bytesOf(response)), note: rangeNote(source) };
  }
  if (response.status !== 206) throw new Error(`could not fetch ${source.url}: HTTP ${response.status} ${response.statusText}`);
  const total = contentRangeTotal(header(response, 'Content-Range'));
  const tail = await bytesOf(response);
  remember(response);
  // The file grew; was it appended to, or rewritten? Its first bytes tell.
  let head: Uint8Array | null = null;
  if (size > 0) {
    const first = await fetcher(source.url, { cache: 'no-store', headers: { Range: `bytes=0-${HEAD_BYTES - 1}` } });
    if (first.status === 206 || first.status === 200) head = (await bytesOf(first)).subarray(0, HEAD_BYTES);
  }
  if (input.plan(total ?? size + tail.length, head) === 'whole') return whole();
  return { growth: await input.append(tail), note: null };
}

function rangeNote(source: UrlSource): string | null {
  if (source.ranged || source.rangeNoted) return null;
  source.rangeNoted = true;
  return `${source.url}: the server does not answer range requests, so the whole file is read again at each change`;
}

/** Read the file again past what is held (or whole, when it shrank or its start changed). */
export async function growFromFile(input: GrowingInput, file: Blob): Promise<SourceGrowth> {
  const head = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  const plan = input.plan(file.size, head);
  if (plan === 'none') return { growth: await input.append(new Uint8Array(0)), note: null };
  if (plan === 'whole') return { growth: await input.replace(new Uint8Array(await file.arrayBuffer())), note: null };
  return { growth: await input.append(new Uint8Array(await file.slice(input.size).arrayBuffer())), note: null };
}
