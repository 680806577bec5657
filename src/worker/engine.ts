/**
 * The engine: the core behind the protocol. It owns the loaded log; the worker entry exposes it
 * over postMessage and the in-process client calls it directly.
 */
import { loaderVerdict } from '../core/analyze/loader-verdict';
import { LoadCancelled, openBytes, openStream } from '../core/analyze/open';
import type { ByteStream, LoadResult } from '../core/analyze/open';
import { GrowingInput } from '../core/analyze/growing';
import type { SessionAnalysis } from '../core/analyze/session';
import { firstNonBlankIsBracket } from '../core/analyze/pipeline';
import { detectContainer } from '../core/decode/detect';
import { growFromFile, growFromUrl } from './follow';
import type { FollowFetch, SourceGrowth, UrlSource } from './follow';
import type { LoadProgress } from '../core/model';
import { familyCounts, finalMessages, sessionTimeFacts, severityCounts } from '../core/analyze/summary';
import { FINGERPRINT_EDGE, fingerprint, fingerprintEdges } from '../core/util/fingerprint';
import type {
  CoreApi,
  DemoInfo,
  ExportFile,
  GrowRequest,
  GrowResult,
  Hello,
  PlaygroundResult,
  PlaygroundState,
  PlaygroundTemplate,
  LoadSummary,
  OpenRequest,
  ProgressEvent,
  RowFilter,
  SessionMethod,
  SessionSummary,
} from '../protocol/protocol';
import { PROTOCOL_VERSION } from '../protocol/protocol';
import { demos } from '../core/demos/demos';
import { PlaygroundHost } from './playground-host';
import { QuerySession, SESSION_QUERIES } from './query';
import { rows as rowWindow } from './query/rows';
import type { QueryContext } from './query';
import { sessionDiagnostics } from '../core/analyze/diagnostics';

/** Host services the engine needs, injectable for tests. */
export interface EngineDeps {
  /**
   * Fetch for `?url=` opens and for following them (with `Range` and validator headers); only
   * ever called for a URL the user asked for.
   */
  fetch?: FollowFetch;
  now?: () => number;
  /** Yield to the event loop between chunks so a cancel can arrive. */
  pause?: () => Promise<void>;
}

/** What `grow` needs of the open load: the request's name and fingerprint, the bytes read, the source's state. */
interface Follow {
  name: string;
  print: string;
  /** The memory limit the load was opened with; a re-read gets the same. */
  limit: number;
  /** The input as opened, until the first `grow` hands it to {@link Follow.input}. */
  opened: Uint8Array | null;
  /** The container findings of that open. */
  findings: LoadResult['findings'];
  input: GrowingInput | null;
  url: UrlSource | null;
  /** A look in progress: looks run one after another. */
  busy: Promise<unknown>;
}

/** Inputs at least this large get a preview of their first {@link PREVIEW_BYTES} (see `ProgressEvent.preview`). */
export const PREVIEW_MIN_INPUT = 4 << 20;
/**
 * What a preview is opened from: about 3,300 events of a generated log, more than a screen of
 * rows, opened in about 30 ms by code that has not run yet in this worker (1 MiB took three times that).
 */
export const PREVIEW_BYTES = 256 << 10;

/**
 * Timeline rows sent with a preview ({@link LoadSummary.firstRows}): more than a tall window's
 * first fetch (the timeline fetches aligned blocks of 64 rows, one or two at the top).
 */
export const FIRST_ROWS = 128;

const ALL_ROWS: RowFilter = { surfaceOnly: false, families: [] };

/**
 * The stream, after its first `limit` bytes were handed to `onHead`: they are read ahead and
 * opened before the load decodes any of them, so a preview is the first thing the worker opens
 * (a stream shorter than `limit` has none).
 */
async function* teeHead(
  chunks: AsyncIterable<Uint8Array>,
  limit: number,
  onHead: (head: Uint8Array) => Promise<void>,
): AsyncGenerator<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  const parts: Uint8Array[] = [];
  let size = 0;
  let done = false;
  try {
    while (size < limit && !done) {
      const next = await iterator.next();
      if (next.done === true) done = true;
      else {
        parts.push(next.value);
        size += next.value.length;
      }
    }
    if (!done) {
      const head = new Uint8Array(limit);
      let at = 0;
      for (const part of parts) {
        const take = part.subarray(0, limit - at);
        head.set(take, at);
        at += take.length;
      }
      await onHead(head);
    }
    yield* parts;
    parts.length = 0;
    while (!done) {
      const next = await iterator.next();
      if (next.done === true) done = true;
      else yield next.value;
    }
  } finally {
    // A consumer that stops early (a cancelled or refused load) stops the read under it.
    if (!done) await iterator.return?.();
  }
}

/** {@link fingerprint} of a file, from its ends (the file need not be read whole). */
async function fingerprintBlob(file: Blob): Promise<string> {
  const size = file.size;
  const head = new Uint8Array(await file.slice(0, FINGERPRINT_EDGE).arrayBuffer());
  const tail = new Uint8Array(await file.slice(Math.max(FINGERPRINT_EDGE, size - FINGERPRINT_EDGE), size).arrayBuffer());
  return fingerprintEdges(size, head, tail);
}

/** The chunks of a stream (a file's), cancelling the read when the consumer stops early. */
async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => {});
  }
}

/**
 * A yield to the event loop between chunks of a load, so a `cancel` can arrive. Posted through a
 * MessageChannel rather than `setTimeout(0)`: nested timers are clamped to 4 ms, which a load of
 * 20+ chunks would spend idle.
 */
function createMacrotask(): () => Promise<void> {
  if (typeof MessageChannel !== 'function') return () => new Promise((resolve) => setTimeout(resolve, 0));
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  // Typed structurally: Node's MessagePort (tests) has `onmessage` and `unref` at run time, but
  // its type declarations do not say so.
  const port = channel.port1 as unknown as { onmessage: (() => void) | null; unref?: () => void };
  port.onmessage = () => waiting.shift()?.();
  // In Node an open port would keep the process alive.
  port.unref?.();
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(null);
    });
}

/**
 * Memory a load may use when the host tells nothing about its limit (Firefox and Safari have no
 * `performance.memory`): 1 GiB. Chromium grants a 64-bit desktop tab about 4 GB of heap, but
 * browsers on phones and tablets end a tab well before a desktop would, and there a load stopped
 * with a message beats a tab killed with everything in it. It is still about five times what the
 * 1,000,000-event benchmark log (85.5 MB) needs by the budget's accounting (about 210 MB).
 */
export const DEFAULT_MEMORY_LIMIT = 2 ** 30;

/** What Chromium's non-standard `performance.memory` holds (absent elsewhere, and in workers). */
interface HeapFigures {
  jsHeapSizeLimit?: number;
  usedJSHeapSize?: number;
}

function hostHeap(): HeapFigures | null {
  const memory = (globalThis as { performance?: { memory?: HeapFigures } }).performance?.memory;
  return memory !== undefined && typeof memory.jsHeapSizeLimit === 'number' && memory.jsHeapSizeLimit > 0 ? memory : null;
}

/**
 * The memory limit of one load: the request's own, else the heap limit (the engine's own
 * `performance.memory` when it runs on the page; the page's figure, sent along by the worker
 * client, when it runs in a worker; else {@link DEFAULT_MEMORY_LIMIT}) minus the heap already in
 * use where that is known (only on the page: a worker has no figure for it). That figure is read
 * just after the engine drops the previous load, before a garbage collection can have freed it,
 * so it may still include the previous load: the limit then errs low, stopping early.
 */
export function memoryLimitFor(request: OpenRequest, heap: HeapFigures | null = hostHeap()): number {
  if (request.memoryLimitBytes !== undefined) return request.memoryLimitBytes;
  const total = heap?.jsHeapSizeLimit ?? request.hostHeapLimitBytes ?? DEFAULT_MEMORY_LIMIT;
  return Math.max(0, total - (heap?.usedJSHeapSize ?? 0));
}

/** Create an engine. */
export function createEngine(deps: EngineDeps = {}): CoreApi {
  const now = deps.now ?? (() => Date.now());
  const pause = deps.pause ?? createMacrotask();
  /**
   * Every session the engine can answer about, by handle: the sessions of the load, and the
   * playground's. Handles are never reused, so a request about a session that is gone is refused.
   */
  const sessions = new Map<number, QuerySession>();
  let nextHandle = 0;
  /** Handles of the load's sessions (dropped from `sessions` by the next open). */
  let loadedHandles: number[] = [];
  let loadCounter = 0;
  let active: { aborted: boolean } | null = null;
  /**
   * How the open load is followed; null when nothing is open, or while only a preview is (a
   * preview cannot be followed: its load is still reading the source).
   */
  let follow: Follow | null = null;

  let playground: PlaygroundHost | null = null;
  /** Handles of the sessions opened to compare with (`openCompare`), kept beside the load's. */
  let compareHandles: number[] = [];

  const session = (handle: number): QuerySession => {
    const query = sessions.get(handle);
    if (!query) throw new Error(sessions.size === 0 ? 'no log is open' : `no session ${handle} is open`);
    return query;
  };

  const dropHandles = (handles: number[]): void => {
    for (const handle of handles.splice(0)) sessions.delete(handle);
  };

  /** Replaces the load's sessions; returns their handles. */
  const adoptLoad = (queries: QuerySession[]): number[] => {
    for (const handle of loadedHandles) sessions.delete(handle);
    loadedHandles = queries.map((query) => {
      const handle = nextHandle++;
      sessions.set(handle, query);
      return handle;
    });
    return loadedHandles;
  };

  const fetcher: FollowFetch = deps.fetch ?? ((url, init) => fetch(url, init));
  /** The validators of the last URL opened (see `readRequest`). */
  let validators = { etag: null as string | null, lastModified: null as string | null };

  const readRequest = async (
    request: OpenRequest,
  ): Promise<{ name: string; bytes: Uint8Array } | { name: string; file: Blob; stream: ByteStream }> => {
    switch (request.kind) {
      case 'file':
        // Hosts without `Blob.stream()` (jsdom) read the whole file first.
        if (typeof request.file.stream !== 'function')
          return { name: request.name, bytes: new Uint8Array(await request.file.arrayBuffer()) };
        return {
          name: request.name,
          file: request.file,
          stream: { sizeHint: request.file.size, chunks: streamChunks(request.file.stream()) },
        };
      case 'demo': {
        const demo = demos().find((d) => d.id === request.id);
        if (!demo) throw new Error(`no demo named ${JSON.stringify(request.id)}`);
        return { name: `demo-${demo.id}.jsonl`, bytes: new TextEncoder().encode(demo.jsonl) };
      }
      case 'bytes':
        return { name: request.name, bytes: new Uint8Array(request.buffer) };
      case 'text':
        return { name: request.name, bytes: new TextEncoder().encode(request.text) };
      case 'url': {
        let response: Awaited<ReturnType<FollowFetch>>;
        try {
          response = await fetcher(request.url);
        } catch (error) {
          throw new Error(
            `could not fetch ${request.url}: ${(error as Error).message || 'network error'} ` +
              '(the network is unreachable, or the server does not allow cross-origin requests)',
            { cause: error },
          );
        }
        if (!response.ok) throw new Error(`could not fetch ${request.url}: HTTP ${response.status} ${response.statusText}`);
        const name = request.url.split(/[?#]/)[0]?.split('/').pop() || request.url;
        // Its validators, so that following it costs a 304 while it does not change.
        validators = { etag: response.headers?.get('ETag') ?? null, lastModified: response.headers?.get('Last-Modified') ?? null };
        return { name, bytes: new Uint8Array(await response.arrayBuffer()) };
      }
    }
  };

  const summarize = (query: QuerySession, id: number, index: number, print: string): SessionSummary => {
    const s = query.session;
    return {
      id,
      index,
      path: s.path,
      format: s.format,
      sessionId: s.sessionId,
      parentSession: s.parentSession,
      seedLength: s.seedLength,
      events: s.log.length,
      baseSeq: s.baseSeq,
      partial: s.partial,
      accepted: s.fold.accepted,
      surfaceError: s.fold.error,
      decodeError: s.decodeError,
      loaderVerdict: loaderVerdict(s.diagnostics),
      time: sessionTimeFacts(s),
      diagnosticCounts: severityCounts(sessionDiagnostics(query.session)),
      nodes: s.fold.nodeCount,
      replacements: s.fold.replacements.length,
      replaceGeneration: s.fold.replaceGeneration,
      messages: finalMessages(s),
      families: familyCounts(s),
      fingerprint: `${print}-${index}`,
    };
  };

  /**
   * One look at the open load's source. An append grows the load's sessions where they are
   * (the same handles and query sessions, their caches of what an append changes forgotten);
   * a re-read, or sessions that came or went, replaces them (new handles). Either way the
   * summary has a new load id, so panels fetch what they show again.
   */
  const growLoaded = async (current: Follow, request: GrowRequest): Promise<GrowResult> => {
    const started = now();
    if (current.input === null) {
      current.input = new GrowingInput({ name: current.name, memoryLimitBytes: current.limit, memoryLimitName: "this tab's memory limit" });
      // What was opened is what the source held then; its analysis is kept when all of it is complete.
      const opened = loadedHandles.map((handle) => session(handle).session);
      await current.input.adopt(current.opened ?? new Uint8Array(0), {
        file: current.name,
        bytes: current.opened?.length ?? 0,
        sessions: opened,
        findings: current.findings,
      });
      current.opened = null;
    }
    const input = current.input;
    let looked: SourceGrowth;
    switch (request.kind) {
      case 'url':
        if (current.url === null) throw new Error('this log was not opened from a URL');
        looked = await growFromUrl(input, current.url, fetcher);
        break;
      case 'file':
        looked = await growFromFile(input, request.file);
        break;
      case 'bytes': {
        const bytes = new Uint8Array(request.buffer);
        looked = { growth: request.whole ? await input.replace(bytes) : await input.append(bytes), note: null };
        break;
      }
    }
    const { growth } = looked;
    const note = [looked.note, growth.note].filter((n) => n !== null).join('; ') || null;
    const result: GrowResult = { ...growth, note, following: input.following, summary: null, elapsedMs: 0 };
    const changed = growth.kind === 'appended' || growth.kind === 'reread' || (growth.kind === 'stopped' && growth.newEvents !== 0);
    result.elapsedMs = now() - started;
    if (!changed && growth.kind !== 'stopped') return result;
    // Replaced only if no other load took its place meanwhile.
    if (follow !== current) return result;
    const analysis = await input.result();
    if (follow !== current) return result;
    const kept = loadedHandles.map((handle) => sessions.get(handle)).filter((q): q is QuerySession => q !== undefined);
    const inPlace = growth.kind !== 'reread' && kept.length === analysis.sessions.length && kept.length === loadedHandles.length;
    let queries: QuerySession[];
    let handles: number[];
    if (inPlace) {
      kept.forEach((q, i) => q.grow(analysis.sessions[i] as SessionAnalysis));
      queries = kept;
      handles = loadedHandles.slice();
    } else {
      queries = analysis.sessions.map((s) => new QuerySession(s));
      handles = adoptLoad(queries);
    }
    // The fingerprint is the source's as it is now, so a link made after the growth matches the
    // file a reload opens.
    current.print = fingerprint(input.held());
    result.summary = {
      loadId: ++loadCounter,
      file: analysis.file,
      bytes: input.size,
      sessions: queries.map((q, i) => summarize(q, handles[i]!, i, current.print)),
      findings: analysis.findings,
      elapsedMs: now() - started,
    };
    result.elapsedMs = now() - started;
    return result;
  };

  /** Every per-session request, dispatched to its query code with the session it names. */
  const queries = {} as Pick<CoreApi, SessionMethod>;
  for (const method of Object.keys(SESSION_QUERIES) as SessionMethod[]) {
    const answer = SESSION_QUERIES[method] as (q: QuerySession, params: unknown, context: QueryContext) => unknown;
    (queries as Record<SessionMethod, (params: { session: number }) => Promise<unknown>>)[method] = async (params) => {
      const query = session(params.session);
      return answer(query, params, { pause, stale: () => sessions.get(params.session) !== query, other: session });
    };
  }

  return {
    ...queries,

    async hello(): Promise<Hello> {
      return { protocolVersion: PROTOCOL_VERSION };
    },

    async open(request: OpenRequest, onProgress: (progress: ProgressEvent) => void): Promise<LoadSummary> {
      if (active) active.aborted = true;
      const signal = { aborted: false };
      active = signal;
      const id = ++loadCounter;
      const started = now();
      /** Handles of this open's preview, answered beside the previous load's until it ends. */
      const previewHandles: number[] = [];
      try {
        const input = await readRequest(request);
        if (signal.aborted) throw new LoadCancelled();
        // The previous load stays open until this one has loaded: the page keeps showing it, and
        // a failed or cancelled open leaves it usable. The limit worked out below counts it where
        // the heap in use is known (an engine on the page), since it is still held.
        const options = {
          name: input.name,
          signal,
          pause,
          onProgress: (p: LoadProgress) => onProgress({ loadId: id, ...p, elapsedMs: now() - started }),
          memoryLimitBytes: memoryLimitFor(request),
          memoryLimitName: "this tab's memory limit",
        };
        /**
         * The first complete lines or frames of a large input, opened on their own: queries
         * answer on them (the page shows rows at once) until the whole load replaces them.
         */
        const preview = async (head: Uint8Array): Promise<void> => {
          const kind = detectContainer(head.subarray(0, 4));
          if ((kind !== 'text' && kind !== 'zstd') || (kind === 'text' && firstNonBlankIsBracket(head) !== false)) return;
          const growing = new GrowingInput({
            name: input.name,
            memoryLimitBytes: options.memoryLimitBytes,
            memoryLimitName: options.memoryLimitName,
          });
          await growing.append(head);
          const early = await growing.result();
          if (signal.aborted || early.sessions.every((s) => s.log.length === 0)) return;
          const queries = early.sessions.map((s) => new QuerySession(s));
          const handles = queries.map((query) => {
            const handle = nextHandle++;
            sessions.set(handle, query);
            previewHandles.push(handle);
            return handle;
          });
          const summary: LoadSummary = {
            loadId: ++loadCounter,
            file: early.file,
            bytes: head.length,
            sessions: queries.map((q, i) => summarize(q, handles[i]!, i, 'preview')),
            findings: early.findings,
            elapsedMs: now() - started,
          };
          const first = summary.sessions[0];
          if (first) {
            const params = { session: first.id, step: first.accepted, filter: ALL_ROWS, start: 0, count: FIRST_ROWS };
            summary.firstRows = { session: first.id, step: first.accepted, window: rowWindow(queries[0]!, params) };
          }
          onProgress({
            loadId: id,
            bytes: head.length,
            totalBytes: null,
            events: summary.sessions.reduce((n, s) => n + s.events, 0),
            elapsedMs: now() - started,
            preview: summary,
          });
        };
        let result: LoadResult;
        let print: string;
        let held: Uint8Array;
        if ('stream' in input) {
          if ((input.stream.sizeHint ?? 0) >= PREVIEW_MIN_INPUT) {
            input.stream.chunks = teeHead(input.stream.chunks, PREVIEW_BYTES, preview);
          }
          const opened = await openStream(input.stream, options);
          result = opened.result;
          held = opened.input;
          // From the file's ends, as for bytes held whole: a load stopped early read only a prefix.
          // A file that became unreadable meanwhile still has what was read.
          print = await fingerprintBlob(input.file).catch(() => fingerprint(opened.input));
        } else {
          print = fingerprint(input.bytes);
          if (input.bytes.length >= PREVIEW_MIN_INPUT) await preview(input.bytes.subarray(0, PREVIEW_BYTES));
          result = await openBytes(input.bytes, options);
          held = input.bytes;
        }
        if (signal.aborted) throw new LoadCancelled();
        const queries = result.sessions.map((s) => new QuerySession(s));
        dropHandles(previewHandles);
        const handles = adoptLoad(queries);
        const url: UrlSource | null = request.kind === 'url' ? { url: request.url, ...validators, ranged: true, rangeNoted: false } : null;
        follow = {
          name: input.name,
          print,
          limit: options.memoryLimitBytes,
          opened: held,
          findings: result.findings,
          input: null,
          url,
          busy: Promise.resolve(),
        };
        return {
          loadId: id,
          file: result.file,
          bytes: result.bytes,
          sessions: queries.map((q, i) => summarize(q, handles[i]!, i, print)),
          findings: result.findings,
          elapsedMs: now() - started,
        };
      } catch (error) {
        // A preview shown while loading goes with the load; the previous load stays open.
        dropHandles(previewHandles);
        throw error;
      } finally {
        if (active === signal) active = null;
      }
    },

    async cancel(): Promise<void> {
      if (active) active.aborted = true;
    },

    async grow(request: GrowRequest): Promise<GrowResult> {
      const current = follow;
      if (current === null) throw new Error('no log is open');
      const look = current.busy.then(() => growLoaded(current, request));
      current.busy = look.catch(() => {});
      return look;
    },

    async openCompare(request: OpenRequest): Promise<LoadSummary> {
      const started = now();
      const input = await readRequest(request);
      const bytes = 'bytes' in input ? input.bytes : new Uint8Array(await input.file.arrayBuffer());
      const result = await openBytes(bytes, {
        name: input.name,
        pause,
        memoryLimitBytes: memoryLimitFor(request),
        memoryLimitName: "this tab's memory limit",
      });
      // One comparison at a time: the previous one's sessions go.
      for (const handle of compareHandles) sessions.delete(handle);
      const queries = result.sessions.map((s) => new QuerySession(s));
      compareHandles = queries.map((query) => {
        const handle = nextHandle++;
        sessions.set(handle, query);
        return handle;
      });
      const print = fingerprint(bytes);
      return {
        loadId: ++loadCounter,
        file: result.file,
        bytes: result.bytes,
        sessions: queries.map((q, i) => summarize(q, compareHandles[i]!, i, print)),
        findings: result.findings,
        elapsedMs: now() - started,
      };
    },

    async closeCompare(): Promise<void> {
      for (const handle of compareHandles) sessions.delete(handle);
      compareHandles = [];
    },

    async demos(): Promise<DemoInfo[]> {
      return demos().map(({ id, title, summary, notes }) => ({ id, title, summary, notes }));
    },

    async playgroundStart(from: { session: number; step: number } | null): Promise<PlaygroundState> {
      const seed: unknown[] = [];
      if (from) {
        const source = session(from.session);
        const k = source.clampStep(from.step);
        for (let i = 0; i < k; i++) seed.push(source.session.log.event(i));
      }
      // A new playground is a new session: requests about the previous one are refused.
      if (playground) sessions.delete(playground.handle);
      const host = new PlaygroundHost(nextHandle++, seed, summarize, (query) => sessions.set(host.handle, query));
      playground = host;
      return host.refresh();
    },

    async playgroundOffer(template: PlaygroundTemplate): Promise<PlaygroundResult> {
      if (!playground) throw new Error('no playground is open');
      return playground.offer(template);
    },

    async playgroundUndo(): Promise<PlaygroundState> {
      if (!playground) throw new Error('no playground is open');
      return playground.undo();
    },

    async playgroundRedo(): Promise<PlaygroundState> {
      if (!playground) throw new Error('no playground is open');
      return playground.redo();
    },

    async playgroundExport(): Promise<ExportFile> {
      if (!playground) throw new Error('no playground is open');
      return playground.export();
    },
  };
}
