/**
 * Shared machinery of both clients: every request is tracked until it settles, so that the death
 * of the engine (worker crash, failed handshake, `terminate()`) rejects *every* pending promise
 * instead of leaving callers waiting forever (the classic Comlink pitfall).
 */
import type {
  Bracket,
  CoreApi,
  CurveData,
  DemoInfo,
  ExportFile,
  ExportKind,
  PlaygroundResult,
  PlaygroundState,
  PlaygroundTemplate,
  ReplaceDetail,
  TranscriptPage,
  ViewPlace,
  ViewsWindow,
  Diagnostic,
  EventDetail,
  GrowRequest,
  GrowResult,
  Hello,
  LoadSummary,
  NavigateKind,
  OpenRequest,
  ProgressEvent,
  ReplacementRow,
  RowFilter,
  RowWindow,
  SearchQuery,
  SearchResult,
  SessionExportRequest,
  SessionExportResult,
  SurfaceNode,
  SurfaceWindow,
} from '../protocol/protocol';
import type { CoreClient, DeadListener } from './CoreClient';

/** The methods of the engine API, by name. */
export type CoreMethod = keyof CoreApi;
export type CoreArgs<K extends CoreMethod> = Parameters<CoreApi[K]>;
export type CoreResult<K extends CoreMethod> = Awaited<ReturnType<CoreApi[K]>>;

export abstract class TrackedClient implements CoreClient {
  /** One reject function per request still in flight. */
  private readonly pending = new Set<(error: Error) => void>();
  private readonly deadListeners = new Set<DeadListener>();
  private deathError: Error | null = null;

  get dead(): boolean {
    return this.deathError !== null;
  }

  /** Number of requests in flight (for tests and diagnostics). */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Performs one engine call; subclasses add the transport (worker, direct call). */
  protected abstract invoke<K extends CoreMethod>(method: K, args: CoreArgs<K>): Promise<CoreResult<K>>;

  abstract terminate(): void;

  onDead(listener: DeadListener): () => void {
    if (this.deathError) {
      listener(this.deathError);
      return () => {};
    }
    this.deadListeners.add(listener);
    return () => {
      this.deadListeners.delete(listener);
    };
  }

  /**
   * Runs `start` and returns a promise that settles with it, or rejects with the death error if
   * the engine dies first. Rejects at once when the engine is already dead.
   */
  protected track<T>(start: () => Promise<T>): Promise<T> {
    const death = this.deathError;
    if (death) return Promise.reject(death);
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (): boolean => {
        if (settled) return false;
        settled = true;
        this.pending.delete(fail);
        return true;
      };
      const fail = (error: Error): void => {
        if (finish()) reject(error);
      };
      this.pending.add(fail);
      let inner: Promise<T>;
      try {
        inner = start();
      } catch (error) {
        if (finish()) reject(error);
        return;
      }
      inner.then(
        (value) => {
          if (finish()) resolve(value);
        },
        (error: unknown) => {
          if (finish()) reject(error);
        },
      );
    });
  }

  /** Marks the client dead (once), rejects every pending request and notifies listeners. */
  protected die(error: Error): void {
    if (this.deathError) return;
    this.deathError = error;
    for (const fail of [...this.pending]) fail(error);
    const listeners = [...this.deadListeners];
    this.deadListeners.clear();
    for (const listener of listeners) listener(error);
  }

  private call<K extends CoreMethod>(method: K, args: CoreArgs<K>): Promise<CoreResult<K>> {
    return this.track(() => this.invoke(method, args));
  }

  hello(): Promise<Hello> {
    return this.call('hello', []);
  }
  open(request: OpenRequest, onProgress: (progress: ProgressEvent) => void): Promise<LoadSummary> {
    return this.call('open', [request, onProgress]);
  }
  cancel(): Promise<void> {
    return this.call('cancel', []);
  }
  grow(request: GrowRequest): Promise<GrowResult> {
    return this.call('grow', [request]);
  }
  rows(session: number, cursor: number, filter: RowFilter, start: number, count: number): Promise<RowWindow> {
    return this.call('rows', [session, cursor, filter, start, count]);
  }
  rowOf(session: number, filter: RowFilter, seq: number): Promise<number> {
    return this.call('rowOf', [session, filter, seq]);
  }
  search(query: SearchQuery): Promise<SearchResult> {
    return this.call('search', [query]);
  }
  surface(session: number, step: number, start: number, count: number): Promise<SurfaceWindow> {
    return this.call('surface', [session, step, start, count]);
  }
  shadowedBy(session: number, replacement: number): Promise<SurfaceNode[]> {
    return this.call('shadowedBy', [session, replacement]);
  }
  replacements(session: number, step: number): Promise<ReplacementRow[]> {
    return this.call('replacements', [session, step]);
  }
  brackets(session: number, step: number, lo: number, hi: number): Promise<Bracket[]> {
    return this.call('brackets', [session, step, lo, hi]);
  }
  detail(session: number, seq: number, step: number): Promise<EventDetail> {
    return this.call('detail', [session, seq, step]);
  }
  diagnostics(session: number, start: number, count: number): Promise<{ total: number; items: Diagnostic[] }> {
    return this.call('diagnostics', [session, start, count]);
  }
  replaceSteps(session: number): Promise<Int32Array> {
    return this.call('replaceSteps', [session]);
  }
  navigate(session: number, step: number, kind: NavigateKind): Promise<number | null> {
    return this.call('navigate', [session, step, kind]);
  }
  views(session: number, step: number, start: number, count: number): Promise<ViewsWindow> {
    return this.call('views', [session, step, start, count]);
  }
  transcript(session: number, step: number, seq: number, start: number, count: number): Promise<TranscriptPage> {
    return this.call('transcript', [session, step, seq, start, count]);
  }
  viewPlace(session: number, step: number, seq: number): Promise<ViewPlace | null> {
    return this.call('viewPlace', [session, step, seq]);
  }
  blockText(session: number, seq: number, block: number): Promise<string> {
    return this.call('blockText', [session, seq, block]);
  }
  replaceDetail(session: number, replacement: number): Promise<ReplaceDetail> {
    return this.call('replaceDetail', [session, replacement]);
  }
  curve(session: number, buckets: number): Promise<CurveData> {
    return this.call('curve', [session, buckets]);
  }
  exportText(session: number, kind: ExportKind, step: number): Promise<ExportFile> {
    return this.call('exportText', [session, kind, step]);
  }
  exportEvent(session: number, seq: number): Promise<ExportFile> {
    return this.call('exportEvent', [session, seq]);
  }
  exportSession(session: number, request: SessionExportRequest): Promise<SessionExportResult> {
    return this.call('exportSession', [session, request]);
  }
  demos(): Promise<DemoInfo[]> {
    return this.call('demos', []);
  }
  playgroundStart(from: { session: number; step: number } | null): Promise<PlaygroundState> {
    return this.call('playgroundStart', [from]);
  }
  playgroundOffer(template: PlaygroundTemplate): Promise<PlaygroundResult> {
    return this.call('playgroundOffer', [template]);
  }
  playgroundUndo(): Promise<PlaygroundState> {
    return this.call('playgroundUndo', []);
  }
  playgroundRedo(): Promise<PlaygroundState> {
    return this.call('playgroundRedo', []);
  }
  playgroundExport(): Promise<ExportFile> {
    return this.call('playgroundExport', []);
  }
}
