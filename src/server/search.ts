/**
 * Search across every session of the store, in the app's query language. A full-text index
 * (MiniSearch, one document per session: everything search reads of its events) is built in the
 * background, kept in the cache directory (never in the store), reused on the next start for
 * files whose identity has not changed, and updated as sessions grow. It only narrows which
 * sessions to read: each candidate is then searched exactly, as `grep` does. Until the index is
 * ready, every session is read (a scan), and the answer says how far the index has got.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { openBytes } from '../core/analyze/open';
import type { SessionAnalysis } from '../core/analyze/session';
import { compileQuery, eventFacts, matchSession, parseQuery, sessionSubject } from '../core/search';
import type { Query } from '../core/search';
import type { Query as Query_ } from 'minisearch';
import type { StoreChange, StoreSearchAnswer, StoreSearchSession } from '../protocol/store-api';
import type { SessionStore } from './listing';
import { readAt } from './store-fs';
import type { StoreFs } from './store-fs';

/** Version of the cache file's layout; another version is rebuilt, not read. */
const CACHE_VERSION = 1;
const CACHE_FILE = `search-index-v${CACHE_VERSION}.json`;
/** Matches listed per session, and sessions with matches per answer. */
const PER_SESSION = 5;
const MAX_SESSIONS = 50;
/** Characters of one session's text given to the index (a 200 MB log is indexed by its start). */
const MAX_INDEXED = 32 << 20;

interface Doc {
  id: string;
  text: string;
  /**
   * What the field terms ask, as whole tokens separated by spaces: `type:tool/result`,
   * `tool:read_file`, `is:error`, `is:replace`, `is:prune`, `is:compaction`. They let `type:`,
   * `tool:` and those `is:` terms narrow the sessions to read, as words do.
   */
  facets: string;
}

const defaultTokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
const OPTIONS = {
  fields: ['text', 'facets'],
  storeFields: [] as string[],
  tokenize: (text: string, field?: string): string[] => (field === 'facets' ? text.split(' ') : defaultTokenize(text)),
};

/** A facet of one event (see {@link Doc.facets}). */
const NARROWING_FLAGS = ['error', 'replace', 'prune', 'compaction'] as const;

/** The index query of a search: the words of its text terms and the facets of its field terms. */
function indexQuery(query: Query): Query_ | null {
  const parts: Query_[] = [];
  const words = indexWords(query);
  if (words.length > 0) parts.push({ queries: [words.join(' ')], fields: ['text'], prefix: true, combineWith: 'AND' });
  for (const term of query.terms) {
    if (term.negate) continue;
    let token: string | null = null;
    let prefix = false;
    if (term.kind === 'type') [token, prefix] = [`type:${term.value}`, term.prefix];
    else if (term.kind === 'tool') token = `tool:${term.value.toLowerCase()}`;
    else if (term.kind === 'is' && (NARROWING_FLAGS as readonly string[]).includes(term.flag)) token = `is:${term.flag}`;
    if (token !== null) parts.push({ queries: [token], fields: ['facets'], prefix, tokenize: (t: string) => [t] });
  }
  return parts.length === 0 ? null : { queries: parts, combineWith: 'AND' };
}

/** Identity of a listed file's content: a change means it must be indexed again. */
const identity = (row: { size: number; modifiedAt: number }): string => `${row.size}:${row.modifiedAt}`;

/** The words of a query's plain text terms (what the index can narrow by). */
function indexWords(query: Query): string[] {
  const words: string[] = [];
  for (const term of query.terms) {
    if (term.negate || (term.kind !== 'word' && term.kind !== 'phrase')) continue;
    // Split as the index splits its text ("read_file" is "read" and "file"); punctuation-only terms add nothing.
    for (const w of defaultTokenize(term.value)) if (w !== '') words.push(w.toLowerCase());
  }
  return words;
}

/** Everything search reads of a session's events, and their facets, for its index document. */
function sessionDoc(session: SessionAnalysis): { text: string; facets: Set<string> } {
  const parts: string[] = [];
  const facets = new Set<string>();
  let length = 0;
  for (let i = 0; i < session.log.length; i++) {
    const subject = sessionSubject(session, i, null);
    facets.add(`type:${subject.type.toLowerCase()}`);
    if (subject.op === 'replace') facets.add('is:replace');
    if (subject.type.startsWith('compaction/')) facets.add('is:compaction');
    if (subject.type === 'compaction/prune') facets.add('is:prune');
    const huge = subject.hugeText?.();
    let texts: string[];
    if (huge) texts = [...huge].slice(0, 4);
    else {
      const facts = eventFacts(subject.event(), subject.op === 'replace', subject.toolNameOfCall?.bind(subject));
      texts = facts.texts;
      for (const tool of facts.tools) facets.add(`tool:${tool.toLowerCase()}`);
      if (facts.error) facets.add('is:error');
      if (facts.replacement === 'prune') facets.add('is:prune');
      if (facts.replacement === 'compaction') facets.add('is:compaction');
    }
    if (session.fold.error?.index === i) facets.add('is:error');
    for (const text of texts) {
      if (length >= MAX_INDEXED) break;
      parts.push(text.length > MAX_INDEXED - length ? text.slice(0, MAX_INDEXED - length) : text);
      length += text.length + 1;
    }
  }
  return { text: parts.join('\n'), facets };
}

/** Options of {@link StoreSearch}. */
export interface StoreSearchOptions {
  store: SessionStore;
  fs: StoreFs;
  /** Where the index is kept between runs (null: in memory only). */
  cacheDir: string | null;
  /** Yields between two sessions of the background build (the server keeps answering). */
  pause?: () => Promise<void>;
}

/** The store-wide search of one server. */
export class StoreSearch {
  private readonly store: SessionStore;
  private readonly fs: StoreFs;
  private readonly cacheDir: string | null;
  private readonly pause: () => Promise<void>;
  private index = new MiniSearch<Doc>(OPTIONS);
  /** Listing id → identity of the content indexed for it. */
  private indexed = new Map<string, string>();
  private queue = new Set<string>();
  private running: Promise<void> | null = null;
  private starting: Promise<void> | null = null;
  private ready = false;
  private stopped = false;

  constructor(options: StoreSearchOptions) {
    this.store = options.store;
    this.fs = options.fs;
    this.cacheDir = options.cacheDir;
    this.pause = options.pause ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
  }

  /** Loads the kept index (when there is one) and indexes whatever it lacks, in the background. */
  start(): Promise<void> {
    this.starting ??= this.begin();
    return this.starting;
  }

  private async begin(): Promise<void> {
    await this.load();
    for (const row of this.store.current().sessions) {
      if (row.state === 'refused' || row.state === 'damaged') continue;
      if (this.indexed.get(row.id) !== identity(row)) this.queue.add(row.id);
    }
    for (const id of [...this.indexed.keys()]) if (!this.store.current().sessions.some((r) => r.id === id)) this.forget(id);
    this.kick();
  }

  /** Follows the store: sessions that appeared, grew or were rewritten are indexed again. */
  update(changes: readonly StoreChange[]): void {
    for (const change of changes) {
      if (change.kind === 'removed') {
        this.queue.delete(change.id);
        this.forget(change.id);
      } else this.queue.add(change.id);
    }
    this.kick();
  }

  /** Resolves once every queued session is indexed (tests, benchmarks). */
  async settled(): Promise<void> {
    await this.start();
    while (this.running) await this.running;
  }

  stop(): void {
    this.stopped = true;
  }

  /** Sessions indexed and listed. */
  progress(): { ready: boolean; indexed: number; total: number } {
    const total = this.store.current().sessions.filter((r) => r.state !== 'refused' && r.state !== 'damaged').length;
    return { ready: this.ready && this.queue.size === 0, indexed: Math.min(total, this.indexed.size), total };
  }

  private forget(id: string): void {
    if (this.index.has(id)) this.index.discard(id);
    this.indexed.delete(id);
  }

  private kick(): void {
    if (this.running || this.stopped) return;
    this.running = (async () => {
      while (this.queue.size > 0 && !this.stopped) {
        const id = this.queue.values().next().value as string;
        this.queue.delete(id);
        await this.indexOne(id);
        await this.pause();
      }
      this.ready = true;
      await this.save();
    })().finally(() => {
      this.running = null;
      if (this.queue.size > 0) this.kick();
    });
  }

  private async open(id: string): Promise<{ sessions: SessionAnalysis[]; key: string } | null> {
    const target = await this.store.pathOf(id).catch(() => null);
    if (!target) return null;
    try {
      const stats = await this.fs.stat(target.path);
      const bytes = await readAt(this.fs, target.path, 0, stats.size);
      const result = await openBytes(bytes, { name: target.row.fileName });
      return { sessions: result.sessions, key: identity({ size: stats.size, modifiedAt: Math.round(stats.mtimeMs) }) };
    } catch {
      return null;
    }
  }

  private async indexOne(id: string): Promise<void> {
    const opened = await this.open(id);
    this.forget(id);
    if (!opened) return;
    const docs = opened.sessions.map(sessionDoc);
    const facets = new Set(docs.flatMap((d) => [...d.facets]));
    this.index.add({ id, text: docs.map((d) => d.text).join('\n'), facets: [...facets].join(' ') });
    this.indexed.set(id, opened.key);
  }

  private async load(): Promise<void> {
    if (this.cacheDir === null) return;
    try {
      const kept = JSON.parse(await readFile(join(this.cacheDir, CACHE_FILE), 'utf8')) as {
        version: number;
        indexed: Record<string, string>;
        index: unknown;
      };
      if (kept.version !== CACHE_VERSION) return;
      this.index = MiniSearch.loadJSON<Doc>(JSON.stringify(kept.index), OPTIONS);
      this.indexed = new Map(Object.entries(kept.indexed));
    } catch {
      // Missing or unreadable: rebuilt from the store.
      this.index = new MiniSearch<Doc>(OPTIONS);
      this.indexed = new Map();
    }
  }

  private async save(): Promise<void> {
    if (this.cacheDir === null) return;
    try {
      await mkdir(this.cacheDir, { recursive: true });
      const file = join(this.cacheDir, CACHE_FILE);
      // Written aside and renamed: a crash mid-write leaves the previous index, not half of one.
      await writeFile(
        `${file}.tmp`,
        JSON.stringify({ version: CACHE_VERSION, indexed: Object.fromEntries(this.indexed), index: this.index.toJSON() }),
      );
      await rename(`${file}.tmp`, file);
    } catch {
      // A cache that cannot be written costs a rebuild next time, nothing else.
    }
  }

  /** Searches the store; `text` is a query of the app's language. */
  async search(text: string): Promise<StoreSearchAnswer> {
    const progress = this.progress();
    const parsed = parseQuery(text);
    if (!parsed.ok) {
      const { message, start, end } = parsed.error;
      return { error: { message, start, end }, sessions: [], scanned: 0, candidates: 0, more: false, index: progress };
    }
    const matcher = compileQuery(parsed.query);
    const rows = [...this.store.current().sessions]
      .filter((r) => r.state !== 'refused' && r.state !== 'damaged')
      .sort((a, b) => b.modifiedAt - a.modifiedAt);
    const narrowing = indexQuery(parsed.query);
    let candidates = rows;
    if (narrowing !== null) {
      const hits = new Set(this.index.search(narrowing).map((r) => r.id as string));
      // Sessions the index has not (re)read yet are read whole: the index may not know them.
      candidates = rows.filter((r) => hits.has(r.id) || this.indexed.get(r.id) !== identity(r));
    }
    const sessions: StoreSearchSession[] = [];
    let scanned = 0;
    let more = false;
    for (const row of candidates) {
      if (sessions.length >= MAX_SESSIONS) {
        more = true;
        break;
      }
      const opened = await this.open(row.id);
      scanned++;
      if (!opened) continue;
      for (const session of opened.sessions) {
        const matches: StoreSearchSession['matches'] = [];
        let total = 0;
        for (const hit of matchSession(session, matcher, session.fold.accepted)) {
          total++;
          if (matches.length < PER_SESSION) {
            const snippet = matcher.snippet(hit.match, hit.subject);
            matches.push({ seq: hit.subject.seq, type: hit.subject.type, snippet: snippet.text, marks: snippet.marks });
          }
        }
        if (total > 0) sessions.push({ id: row.id, path: session.path, sessionId: session.sessionId, total, matches });
      }
    }
    return { error: null, sessions, scanned, candidates: candidates.length, more, index: progress };
  }
}
