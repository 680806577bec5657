/**
 * Literal items of model messages, for measuring what a compaction kept: file paths, shell
 * commands, numbers with units, identifiers (code symbols, ids, URLs), error messages and the
 * user's explicit constraints. The rules are deliberately simple and are stated in
 * docs/ANALYSIS.md (What a compaction lost); tests pin them on hand-made cases.
 */

/** The categories, in the order they are reported. */
export const LITERAL_CATEGORIES = ['paths', 'commands', 'numbers', 'identifiers', 'errors', 'constraints'] as const;
export type LiteralCategory = (typeof LITERAL_CATEGORIES)[number];

/** Items per category, each list deduplicated in first-seen order. */
export type Literals = Record<LiteralCategory, string[]>;

/** The texts of a message and what they say about where they came from. */
export interface MessageTexts {
  /** Every text the model reads: text and reasoning blocks, tool-call arguments, tool-result texts. */
  texts: string[];
  /** Shell commands given to tools (`command` of a tool call's arguments). */
  commands: string[];
  /** First line of each tool result marked `isError`. */
  errors: string[];
  /** Texts the user typed (role `user`, source kind `user` or no source), where constraints are looked for. */
  userTexts: string[];
}

/* eslint-disable @typescript-eslint/no-explicit-any */
function collect(content: any, out: MessageTexts, depth = 0): void {
  // Tool results nest content; deeper than any real message, the rest is not read.
  if (depth > 16) return;
  if (typeof content === 'string') {
    out.texts.push(content);
    return;
  }
  if (!Array.isArray(content)) return;
  for (const block of content) {
    if (block === null || typeof block !== 'object') continue;
    if (typeof block.text === 'string') out.texts.push(block.text);
    if (typeof block.arguments === 'string') {
      out.texts.push(block.arguments);
      try {
        const args = JSON.parse(block.arguments);
        if (args !== null && typeof args === 'object' && typeof args.command === 'string') out.commands.push(args.command.trim());
      } catch {
        // Arguments that are not JSON are still read as text.
      }
    }
    if (block.type === 'tool-result') {
      const before = out.texts.length;
      collect(block.content, out, depth + 1);
      if (block.isError === true) {
        const first = out.texts
          .slice(before)
          .join('\n')
          .split('\n')
          .find((l) => l.trim() !== '');
        if (first !== undefined) out.errors.push(first.trim().slice(0, ERROR_CHARS));
      }
    }
  }
}

/**
 * Whether a derived model message is what the person typed (its texts are its `userTexts`):
 * injected context (plugins, agent instructions, goals, reports) carries user role too, with
 * another source kind.
 */
export function typedByUser(message: any): boolean {
  if (message === null || typeof message !== 'object' || message.role !== 'user') return false;
  const source = message.source;
  return source === undefined || (source !== null && typeof source === 'object' && source.kind === 'user');
}

/** The texts of one derived model message (surface.md §7). */
export function messageTexts(message: any): MessageTexts {
  const out: MessageTexts = { texts: [], commands: [], errors: [], userTexts: [] };
  if (message === null || typeof message !== 'object') return out;
  collect(message.content, out);
  if (typedByUser(message)) out.userTexts.push(...out.texts);
  return out;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

const ERROR_CHARS = 160;
const TRAILING_PUNCTUATION = /[.,;:!?]+$/;
/** Characters of one text searched for items (a huge pasted output is read from its start). */
export const TEXT_LIMIT = 200_000;
const URL = /\bhttps?:\/\/[^\s<>"'`()[\]{}]+/g;
const PATH =
  /(?<![\w.@+~/-])(?:~|\.{1,2})?\/?(?:[\w.@+-]+\/)+[\w.@+-]+|\b[\w-]+\.(?:tsx?|jsx?|mjs|cjs|jsonl?|md|py|rs|go|java|c|h|cc|cpp|hpp|css|html|ya?ml|toml|sh|txt|lock|zip|zst|gz|sql|rb|php|swift|kt)\b/g;
const NUMBER_UNIT =
  /(?<![\w.])\d+(?:[.,]\d+)?\s?(?:ms|µs|us|ns|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|B|KB|KiB|MB|MiB|GB|GiB|TB|bytes?|%|px|tokens?|lines?|files?|chars?|characters?|x)(?![\w%])/g;
/**
 * What a pattern cannot match without: a character class every match holds, or a character. A
 * text without it is not scanned by that pattern (most texts lack some of them, and the test
 * stops at the first occurrence).
 */
type Needs = 'upper' | 'digit' | string;

/** Symbols, then ids, each with what every match of it holds. */
const SYMBOLS: [RegExp, Needs][] = [
  [/\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b/g, 'upper'], // camelCase
  [/\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b/g, 'upper'], // PascalCase with two humps or more
  [/\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b/g, '_'], // snake_case, SCREAMING_CASE
  [/\b[A-Za-z_$][\w$]{2,}(?=\()/g, '('], // a call: name(
];
const IDS: [RegExp, Needs][] = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '-'], // UUID
  [/\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/g, 'digit'], // hex hash (commit, digest)
  [/(?<![\w#])#\d+\b/g, '#'], // issue or PR number
];
const ERROR_LINE = /\b(?:[A-Z]\w*(?:Error|Exception)|Error|ERROR|ERR!|FAIL(?:ED)?|fatal|panic)\b|\berror(?:\s*\[[\w-]+\])?:/;
/** Every match of {@link ERROR_LINE} holds one of these (`rror` of `Error` and `error`). */
const ERROR_WORDS = ['rror', 'ERR', 'Exception', 'FAIL', 'fatal', 'panic'];
const COMMAND_WORDS = new Set(
  'npm npx yarn pnpm node git ls cat grep rg cd sed awk find rm mv cp mkdir touch curl wget make cargo go python python3 pip pip3 docker kubectl tsc vitest jest pytest bash sh chmod tar unzip echo export'.split(
    ' ',
  ),
);
const IMPERATIVE_START =
  /^(?:(?:please|and|also|but|so)\s+)*(?:don't|don’t|do not|never|always|must|make sure|ensure|avoid|keep|only|stop|use|do)\b/i;
const IMPERATIVE_MARK =
  /\b(?:must(?: not)?|mustn't|never|always|do not|don't|don’t|should not|shouldn't|make sure|under no circumstances)\b/i;
const STOP_WORDS = new Set(
  'that this with from have they them then than when what which will would should could there their your about into only also just make sure must never always does dont'.split(
    ' ',
  ),
);

function add(list: Set<string>, item: string): void {
  const t = item.trim();
  if (t.length > 0) list.add(t);
}

/**
 * Every match of a global pattern, as strings. `String.prototype.match` collects them natively,
 * without a match object per item; the patterns' `lastIndex` stays 0 (they are only used whole).
 */
function matches(text: string, pattern: RegExp): string[] {
  return text.match(pattern) ?? [];
}

/**
 * The matches of a global pattern, and the text with each match that `blank` accepts replaced by
 * a space: one pass where a `matchAll` and a `replace` with the same pattern would take two (they
 * find the same matches).
 */
function matchAndBlank(text: string, pattern: RegExp, blank: (match: string) => boolean): { found: string[]; rest: string } {
  const found: string[] = [];
  let rest = '';
  let from = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const item = m[0];
    found.push(item);
    if (blank(item)) {
      rest += text.slice(from, m.index) + ' ';
      from = m.index + item.length;
    }
  }
  pattern.lastIndex = 0;
  return { found, rest: from === 0 ? text : rest + text.slice(from) };
}

/** Whether a slash-bearing token is a path: rooted (`/`, `~/`, `./`), or with an extension, or of three segments or more; and it holds a letter. */
function isPath(token: string): boolean {
  if (!/[A-Za-z]/.test(token) || token.length < 3) return false;
  if (!token.includes('/')) return true; // matched by the file-name alternative
  if (/^(?:~|\.{1,2})?\//.test(token)) return true;
  const last = token.slice(token.lastIndexOf('/') + 1);
  return /\.[A-Za-z][\w]{0,5}$/.test(last) || token.split('/').length >= 3;
}

/** Sentences of a text: split at sentence ends and line breaks. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Every literal item of a set of message texts (of the given categories only, when said). */
export function extractLiterals(parts: readonly MessageTexts[], only?: ReadonlySet<LiteralCategory>): Literals {
  const sets: Record<LiteralCategory, Set<string>> = {
    paths: new Set(),
    commands: new Set(),
    numbers: new Set(),
    identifiers: new Set(),
    errors: new Set(),
    constraints: new Set(),
  };
  for (const part of parts) {
    if (only === undefined || only.size > 1 || !only.has('constraints')) literalItems(part, sets);
    if (only === undefined || only.has('constraints')) {
      for (const text of part.userTexts) {
        for (const s of sentences(text)) {
          if (s.length >= 8 && s.length <= 300 && (IMPERATIVE_START.test(s) || IMPERATIVE_MARK.test(s))) add(sets.constraints, s);
        }
      }
    }
  }
  const pick = (c: LiteralCategory): string[] => (only === undefined || only.has(c) ? [...sets[c]] : []);
  return {
    paths: pick('paths'),
    commands: pick('commands'),
    numbers: pick('numbers'),
    identifiers: pick('identifiers'),
    errors: pick('errors'),
    constraints: pick('constraints'),
  };
}

/** The items of every category but constraints, from one message's texts. */
function literalItems(part: MessageTexts, sets: Record<LiteralCategory, Set<string>>): void {
  for (const c of part.commands) add(sets.commands, c);
  for (const e of part.errors) add(sets.errors, e);
  for (const whole of part.texts) {
    const raw = whole.length > TEXT_LIMIT ? whole.slice(0, TEXT_LIMIT) : whole;
    const urls = raw.includes('://') ? matchAndBlank(raw, URL, () => true) : { found: [], rest: raw };
    for (const url of urls.found) add(sets.identifiers, url.replace(TRAILING_PUNCTUATION, ''));
    // Paths are blanked where found, so that their parts are not read again as numbers or symbols.
    const paths = matchAndBlank(urls.rest, PATH, (p) => {
      const path = p.replace(TRAILING_PUNCTUATION, '');
      if (!isPath(path)) return false;
      add(sets.paths, path);
      return true;
    });
    const text = paths.rest;
    let upper: boolean | undefined;
    let digit: boolean | undefined;
    const holds = (needs: Needs): boolean =>
      needs === 'upper' ? (upper ??= /[A-Z]/.test(text)) : needs === 'digit' ? (digit ??= /\d/.test(text)) : text.includes(needs);
    if (holds('digit')) for (const n of matches(text, NUMBER_UNIT)) add(sets.numbers, normalizeNumber(n));
    for (const [pattern, needs] of SYMBOLS) if (holds(needs)) for (const s of matches(text, pattern)) add(sets.identifiers, s);
    for (const [pattern, needs] of IDS) if (holds(needs)) for (const s of matches(text, pattern)) add(sets.identifiers, s);
    // Lines are read only when the text holds a prompt or an error somewhere: a trimmed line is
    // part of the text, and its edges are word boundaries there too, so a line that matches
    // means the whole text matches.
    const prompts = raw.includes('$ ');
    const errors = ERROR_WORDS.some((word) => raw.includes(word)) && ERROR_LINE.test(raw);
    if (prompts || errors) {
      for (const line of raw.split('\n')) {
        const t = line.trim();
        if (prompts && t.startsWith('$ ')) add(sets.commands, t.slice(2));
        if (errors && ERROR_LINE.test(t)) add(sets.errors, t.slice(0, ERROR_CHARS));
      }
    }
    if (raw.includes('`'))
      for (const m of raw.matchAll(/`([^`\n]+)`/g)) {
        const code = (m[1] as string).trim();
        if (COMMAND_WORDS.has(code.split(/\s+/)[0] as string)) add(sets.commands, code);
      }
  }
}

/** `1.5 MB` → `1.5MB`: a number and its unit compared without the space between them. */
function normalizeNumber(item: string): string {
  return item.replace(/\s+/g, '');
}

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();
const words = (s: string): string[] => s.toLowerCase().match(/[a-z0-9']+/g) ?? [];
const contentWords = (s: string): string[] => words(s).filter((w) => w.length >= 4 && !STOP_WORDS.has(w));

/** A compiled replacement text, to test items against. */
export interface KeptTester {
  kept(category: LiteralCategory, item: string): boolean;
}

/**
 * How an item counts as kept in a replacement's text: verbatim for paths, commands (whitespace
 * collapsed) and identifiers; numbers with the unit, spacing ignored; an error by its first 60
 * characters, case and whitespace ignored; a constraint when at least 60% of its content words
 * (four letters or more, not a stop word) occur in the replacement, or verbatim when it has
 * fewer than two.
 */
export function keptTester(replacementTexts: readonly string[]): KeptTester {
  const text = replacementTexts.join('\n');
  // Each form of the text is built on its first use: a load counts only constraints, and most
  // replaces have no item of some categories.
  let flat: string | undefined;
  let lower: string | undefined;
  let numbers: Set<string> | undefined;
  let vocabulary: Set<string> | undefined;
  const flatText = (): string => (flat ??= collapse(text));
  const lowerText = (): string => (lower ??= flatText().toLowerCase());
  return {
    kept(category, item) {
      switch (category) {
        case 'numbers':
          numbers ??= new Set(matches(text, NUMBER_UNIT).map(normalizeNumber));
          return numbers.has(item) || flatText().includes(item);
        case 'commands':
          return flatText().includes(collapse(item));
        case 'errors':
          return lowerText().includes(collapse(item).toLowerCase().slice(0, 60));
        case 'constraints': {
          const cw = contentWords(item);
          if (cw.length < 2) return lowerText().includes(collapse(item).toLowerCase());
          vocabulary ??= new Set(words(text));
          const present = cw.filter((w) => (vocabulary as Set<string>).has(w)).length;
          return present / cw.length >= 0.6;
        }
        default:
          return text.includes(item);
      }
    },
  };
}
