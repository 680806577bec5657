/**
 * Matching a parsed query against events, with the offsets of what matched for snippets.
 * Cheap terms (seq, type, surface op, state at the cursor) are tried before anything that needs
 * the parsed event, so a query such as `type:compaction/ seq:..500` parses few events.
 */
import { eventFacts } from './subject';
import type { EventFacts } from './subject';
import type { Query, Term, TextTerm } from './query';

/** What the host knows of one event without parsing it, and how to parse it. */
export interface SearchSubject {
  seq: number;
  type: string;
  /** The event's surface operation as written. */
  op: 'append' | 'replace' | 'invalid' | null;
  /** The parsed event (called at most once per match). */
  event(): unknown;
  /**
   * The event's state at the cursor (`current`, `shadowed`, `log-only`, …), for `is:surface`,
   * `is:shadowed` and `is:log-only`; omitted by hosts without a cursor (nothing then matches them).
   */
  state?(): string;
  /** The tool name of a call, by call id, so `tool:` finds the results of that tool too. */
  toolNameOfCall?(callId: string): string | null;
  /**
   * For an event too large to parse for a search (a 200 MB tool result): its raw text in
   * pieces, each starting with the end of the one before (so a match across two pieces is
   * found). Text terms then match the raw JSON text; tool, turn, step and the content `is:`
   * flags do not hold. Null (or absent) for ordinary events.
   */
  hugeText?(): Iterable<string> | null;
}

/** One matched piece of text: `texts[part]` from `start` to `end`. */
export interface Hit {
  part: number;
  start: number;
  end: number;
}

/** A match: the event's facts (when they were needed) and the first hit of each text term. */
export interface Match {
  facts: EventFacts | null;
  hits: Hit[];
}

/** A snippet of matched text with the matched ranges (`[start, end)` in `text`). */
export interface Snippet {
  text: string;
  marks: Array<[number, number]>;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A text term as a regular expression (global, for finding every hit in a snippet). */
function regexOf(term: TextTerm): RegExp {
  switch (term.kind) {
    case 'word':
      return new RegExp(escape(term.value), 'gi');
    case 'phrase':
      // A phrase matches across line breaks and runs of spaces: texts are read, not diffed.
      return new RegExp(term.value.trim().split(/\s+/).map(escape).join('\\s+'), 'gi');
    case 'regex':
      return new RegExp(term.source, `g${term.flags}`);
  }
}

function firstHit(re: RegExp, texts: readonly string[]): Hit | null {
  for (let part = 0; part < texts.length; part++) {
    re.lastIndex = 0;
    const m = re.exec(texts[part] as string);
    if (m) return { part, start: m.index, end: m.index + m[0].length };
  }
  return null;
}

const within = (n: number | null, lo: number, hi: number): boolean => n !== null && n >= lo && n <= hi;

/** A compiled query: test events with {@link Matcher.match}. */
export class Matcher {
  readonly query: Query;
  /** Terms that need no parse, then the others. */
  private readonly cheap: Term[];
  private readonly costly: Term[];
  private readonly regexes = new Map<Term, RegExp>();

  constructor(query: Query) {
    this.query = query;
    const isCheap = (t: Term): boolean =>
      t.kind === 'seq' || t.kind === 'type' || (t.kind === 'is' && ['replace', 'surface', 'shadowed', 'log-only'].includes(t.flag));
    this.cheap = query.terms.filter(isCheap);
    this.costly = query.terms.filter((t) => !isCheap(t));
    for (const t of query.terms) if (t.kind === 'word' || t.kind === 'phrase' || t.kind === 'regex') this.regexes.set(t, regexOf(t));
  }

  /** True when the query needs nothing but what a subject carries unparsed. */
  get needsEvent(): boolean {
    return this.costly.length > 0;
  }

  /** The match of `subject`, or null when some term does not hold. */
  match(subject: SearchSubject): Match | null {
    for (const term of this.cheap) if (this.cheapHolds(term, subject) === term.negate) return null;
    if (this.costly.length === 0) return { facts: null, hits: [] };
    const pieces = subject.hugeText?.() ?? null;
    if (pieces) return this.matchPieces(subject, pieces);
    const facts = eventFacts(subject.event(), subject.op === 'replace', subject.toolNameOfCall?.bind(subject));
    const hits: Hit[] = [];
    for (const term of this.costly) {
      const re = this.regexes.get(term);
      if (re) {
        const hit = firstHit(re, facts.texts);
        if ((hit !== null) === term.negate) return null;
        if (hit) hits.push(hit);
      } else if (this.factHolds(term, subject, facts) === term.negate) return null;
    }
    return { facts, hits };
  }

  /** {@link match} over the raw pieces of a huge event (see {@link SearchSubject.hugeText}). */
  private matchPieces(subject: SearchSubject, pieces: Iterable<string>): Match | null {
    const texts: string[] = [];
    const hits = new Map<Term, Hit>();
    const wanted = this.costly.filter((t) => this.regexes.has(t));
    for (const piece of pieces) {
      for (const term of wanted) {
        if (hits.has(term)) continue;
        const hit = firstHit(this.regexes.get(term) as RegExp, [piece]);
        if (!hit) continue;
        if (term.negate) return null;
        // Only pieces that hold a first hit are kept (for the snippet), not the whole text.
        if (texts[texts.length - 1] !== piece) texts.push(piece);
        hits.set(term, { ...hit, part: texts.length - 1 });
      }
      if (wanted.every((t) => t.negate || hits.has(t)) && wanted.every((t) => !t.negate)) break;
    }
    const summary = `${subject.type} (too large to read whole for search)`;
    const facts: EventFacts = { texts, summary, tools: [], turn: null, step: null, error: false, replacement: null };
    for (const term of this.costly) {
      if (this.regexes.has(term)) {
        if (!term.negate && !hits.has(term)) return null;
      } else if (this.factHolds(term, subject, facts) === term.negate) return null;
    }
    return { facts, hits: [...hits.values()] };
  }

  private cheapHolds(term: Term, subject: SearchSubject): boolean {
    switch (term.kind) {
      case 'seq':
        return within(subject.seq, term.range.lo, term.range.hi);
      case 'type': {
        const type = subject.type.toLowerCase();
        return term.prefix ? type.startsWith(term.value) : type === term.value;
      }
      case 'is':
        if (term.flag === 'replace') return subject.op === 'replace';
        if (!subject.state) return false;
        return subject.state() === (term.flag === 'surface' ? 'current' : term.flag);
      default:
        return false;
    }
  }

  private factHolds(term: Term, subject: SearchSubject, facts: EventFacts): boolean {
    switch (term.kind) {
      case 'tool': {
        const want = term.value.toLowerCase();
        return facts.tools.some((t) => t.toLowerCase() === want);
      }
      case 'turn':
        return within(facts.turn, term.range.lo, term.range.hi);
      case 'step':
        return within(facts.step, term.range.lo, term.range.hi);
      case 'is':
        if (term.flag === 'error') return facts.error || subject.state?.() === 'rejected';
        if (term.flag === 'prune') return subject.type === 'compaction/prune' || facts.replacement === 'prune';
        if (term.flag === 'compaction') return subject.type.startsWith('compaction/') || facts.replacement === 'compaction';
        return false;
      default:
        return false;
    }
  }

  /**
   * A one-line snippet of a match, at most about `max` characters: the text around its first
   * hit with every hit of the query's text terms in it marked, or the event's summary when no
   * text term matched. Whitespace is collapsed; `…` marks a cut.
   */
  snippet(match: Match, subject: SearchSubject, max = 160): Snippet {
    if (!match.facts && subject.hugeText?.()) return { text: `${subject.type} (too large to read whole for search)`, marks: [] };
    const facts = match.facts ?? eventFacts(subject.event(), subject.op === 'replace', subject.toolNameOfCall?.bind(subject));
    const first = match.hits.reduce<Hit | null>(
      (a, h) => (a === null || h.part < a.part || (h.part === a.part && h.start < a.start) ? h : a),
      null,
    );
    if (first === null) return { text: facts.summary, marks: [] };
    const text = facts.texts[first.part] as string;
    const lead = Math.min(40, Math.max(0, Math.floor((max - (first.end - first.start)) / 2)));
    const from = Math.max(0, first.start - lead);
    const to = Math.min(text.length, Math.max(first.end, from + max));
    const window = text.slice(from, to);
    const ranges: Array<[number, number]> = [[first.start - from, Math.min(first.end, to) - from]];
    for (const [term, re] of this.regexes) {
      if (term.negate) continue;
      re.lastIndex = 0;
      for (let m = re.exec(window); m; m = re.exec(window)) {
        if (m[0].length === 0) {
          re.lastIndex++;
          continue;
        }
        ranges.push([m.index, m.index + m[0].length]);
      }
    }
    return collapse(window, ranges, from > 0, to < text.length);
  }
}

/** Collapses whitespace runs of `text` to one space, moving `ranges` along; merges overlaps. */
function collapse(text: string, ranges: Array<[number, number]>, cutStart: boolean, cutEnd: boolean): Snippet {
  const map = new Int32Array(text.length + 1);
  let out = cutStart ? '…' : '';
  let lastSpace = true;
  for (let i = 0; i < text.length; i++) {
    map[i] = out.length;
    const c = text[i] as string;
    if (/\s/.test(c)) {
      if (!lastSpace) out += ' ';
      lastSpace = true;
    } else {
      out += c;
      lastSpace = false;
    }
  }
  map[text.length] = out.length;
  const sorted = ranges
    .map(([s, e]): [number, number] => [map[s]!, map[e]!])
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  const marks: Array<[number, number]> = [];
  for (const r of sorted) {
    const last = marks[marks.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else marks.push([r[0], r[1]]);
  }
  if (cutEnd) out += '…';
  return { text: out, marks };
}

/** Compiles a parsed query. */
export function compileQuery(query: Query): Matcher {
  return new Matcher(query);
}
