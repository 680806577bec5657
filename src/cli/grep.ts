/**
 * `surface-lens grep QUERY PATH... [--json]`: the app's search language over session files,
 * directories and stores, from the terminal.
 *
 * Exit status (as grep's): 0 when something matched, 1 when nothing did, 2 for a bad query,
 * a usage error or a path that could not be read.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openBytes } from '../core/analyze/open';
import { compileQuery, formatQueryError, matchSession, parseQuery } from '../core/search';

/** Where the command writes. */
export interface GrepIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export const GREP_USAGE = `usage: surface-lens grep QUERY PATH... [--json]

Search session logs (files, directories, a session store) with the app's query language:
words, "exact phrases", /regex/ or /regex/i, type:tool/result (type:compaction/ is a prefix),
tool:NAME, turn:N, step:N, seq:10..200, is:error, is:replace, is:prune, is:compaction,
is:surface, is:shadowed, is:log-only (at the end of the log), and -term to exclude.

  --json   one JSON object per match per line: file, session, seq, type, snippet, marks
  --help   show this help

Exit status: 0 something matched, 1 nothing matched, 2 bad query, usage error or unreadable path.
`;

/** File names that hold a session in a directory walk (other files are not opened). */
const SESSION_FILE = /\.(jsonl|jsonl\.zstd|jsonl\.zst|jsonl\.gz|json|zip)$/i;

/** Session files under `path` (itself when it is a file), in name order. */
function sessionFiles(path: string, depth = 0): string[] {
  const stat = statSync(path);
  if (stat.isFile()) return [path];
  if (!stat.isDirectory() || depth > 8) return [];
  const out: string[] = [];
  for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) out.push(...sessionFiles(child, depth + 1));
    else if (entry.isFile() && SESSION_FILE.test(entry.name)) out.push(child);
  }
  return out;
}

const OPTIONS = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

/** One match, as `--json` writes it. */
export interface GrepRecord {
  file: string;
  session: string | null;
  seq: number;
  type: string;
  snippet: string;
  /** `[start, end)` ranges of `snippet` that matched. */
  marks: Array<[number, number]>;
}

/**
 * Run `grep` with the arguments after the command name.
 * @returns the exit status
 */
export async function runGrep(argv: readonly string[], io: GrepIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true });
  } catch (error) {
    io.stderr.write(`surface-lens grep: ${(error as Error).message}\n\n${GREP_USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    io.stdout.write(GREP_USAGE);
    return 0;
  }
  const [text, ...paths] = parsed.positionals;
  if (text === undefined || text.trim() === '' || paths.length === 0) {
    io.stderr.write(
      `surface-lens grep: ${text === undefined || text.trim() === '' ? 'a query is needed' : 'name at least one path'}\n\n${GREP_USAGE}`,
    );
    return 2;
  }
  const query = parseQuery(text);
  if (!query.ok) {
    io.stderr.write(`surface-lens grep: bad query ${JSON.stringify(text)}: ${formatQueryError(query.error)}\n`);
    return 2;
  }
  const matcher = compileQuery(query.query);
  const json = parsed.values.json === true;
  let matched = false;
  let failed = false;
  for (const path of paths) {
    let files: string[];
    try {
      files = sessionFiles(path);
    } catch (error) {
      io.stderr.write(`surface-lens grep: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
      failed = true;
      continue;
    }
    for (const file of files) {
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(readFileSync(file));
      } catch (error) {
        io.stderr.write(`surface-lens grep: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
        failed = true;
        continue;
      }
      const result = await openBytes(bytes, { name: file });
      for (const session of result.sessions) {
        // The cursor terms answer at the end of what the fold accepted, as `check` reports it.
        for (const hit of matchSession(session, matcher, session.fold.accepted)) {
          matched = true;
          const snippet = matcher.snippet(hit.match, hit.subject);
          const record: GrepRecord = {
            file: session.path,
            session: session.sessionId,
            seq: hit.subject.seq,
            type: hit.subject.type,
            snippet: snippet.text,
            marks: snippet.marks,
          };
          io.stdout.write(json ? `${JSON.stringify(record)}\n` : `${record.file}:${record.seq}: ${record.type}: ${record.snippet}\n`);
        }
      }
    }
  }
  return failed ? 2 : matched ? 0 : 1;
}
