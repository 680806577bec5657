/**
 * `surface-lens compare A B [--json]`: where two sessions share their history and where they
 * part (a session and its fork, a rerun, two exports of one session).
 *
 * Exit status: 0 when the logs are equal event for event, 1 when they differ, 2 for a usage
 * error or an input that could not be read or holds no session.
 */
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Comparison } from '../core/analysis/compare';
import { compareSessions } from '../core/analysis/compare';
import { openBytes } from '../core/analyze/open';
import type { SessionAnalysis } from '../core/analyze/session';

/** Where the command writes. */
export interface CompareIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export const COMPARE_USAGE = `usage: surface-lens compare A B [--json]

Compare two session logs: the events they share from the start (same type and data), the
first event where each diverges, how their final model views differ, and the token and cache
figures of their model requests, paired in order. A and B are files in any form check reads;
FILE!MEMBER picks a session of an export ZIP (e.g. export.zip!subagents/x/session.jsonl), else
a file's first session is compared.

  --json   one JSON object: a, b (paths), commonPrefix, divergence, equal, finalViews, requests, deltas
  --help   show this help

Exit status: 0 equal, 1 they differ, 2 usage error or unreadable input.
`;

const OPTIONS = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

class InputError extends Error {}

/** Open `FILE` or `FILE!MEMBER` and pick its session. */
async function openSide(spec: string): Promise<SessionAnalysis> {
  let file = spec;
  let member: string | null = null;
  try {
    statSync(spec);
  } catch {
    const bang = spec.lastIndexOf('!');
    if (bang > 0) {
      file = spec.slice(0, bang);
      member = spec.slice(bang + 1);
    }
  }
  let bytes: Uint8Array;
  try {
    if (!statSync(file).isFile()) throw new InputError(`${file} is not a regular file`);
    bytes = readFileSync(file);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const { sessions } = await openBytes(bytes, { name: file });
  const session = member === null ? sessions[0] : sessions.find((s) => s.path === `${file}!${member}` || s.path.endsWith(`!${member}`));
  if (session === undefined) {
    const names = sessions.map((s) => s.path).join(', ');
    throw new InputError(
      member === null ? `${file}: no session found` : `${file}: no session ${JSON.stringify(member)} (it holds ${names || 'none'})`,
    );
  }
  return session;
}

const signed = (n: number | null): string => (n === null ? '—' : n > 0 ? `+${n}` : String(n));
const where = (r: { seq: number; type: string | null } | null): string => (r === null ? 'ends' : `seq ${r.seq} (${r.type ?? 'no type'})`);

/** The human-readable comparison. */
export function formatComparison(a: string, b: string, c: Comparison): string {
  const lines: string[] = [];
  lines.push(`A ${a}`, `B ${b}`);
  if (c.equal) lines.push(`equal: ${c.commonPrefix} events, the same from start to end`);
  else {
    lines.push(`common prefix: ${c.commonPrefix} events`);
    lines.push(`diverge: A ${where(c.divergence.a)} · B ${where(c.divergence.b)}`);
  }
  const v = c.finalViews;
  lines.push(
    `final model views: ${v.commonMessages} messages in common; A ${v.a.messages} messages ~${v.a.tokens} tokens, B ${v.b.messages} messages ~${v.b.tokens} tokens`,
  );
  lines.push(`model requests: A ${c.requests.a}, B ${c.requests.b}, ${c.requests.same} pairs identical`);
  for (const d of c.deltas.slice(0, 50)) {
    const side = (s: typeof d.a): string =>
      s === null ? 'none' : `seq ${s.seq} ~${s.tokens} tok, reused ~${s.reusedTokens}, cache read ${s.cacheRead ?? '—'}`;
    lines.push(
      `  #${d.index + 1}  A ${side(d.a)}  |  B ${side(d.b)}  |  Δ tokens ${signed(d.tokens)}, reused ${signed(d.reusedTokens)}, cache read ${signed(d.cacheRead)}`,
    );
  }
  if (c.deltas.length > 50) lines.push(`  … ${c.deltas.length - 50} more differing pairs (--json lists all)`);
  return `${lines.join('\n')}\n`;
}

/** Run `compare` with the arguments after the command name. */
export async function runCompare(argv: readonly string[], io: CompareIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    io.stderr.write(`surface-lens compare: ${(error as Error).message}\n\n${COMPARE_USAGE}`);
    return 2;
  }
  if (parsed.values.help === true) {
    io.stdout.write(COMPARE_USAGE);
    return 0;
  }
  if (parsed.positionals.length !== 2) {
    io.stderr.write(`surface-lens compare: needs exactly two inputs, got ${parsed.positionals.length}\n\n${COMPARE_USAGE}`);
    return 2;
  }
  const [a, b] = parsed.positionals as [string, string];
  let sa: SessionAnalysis;
  let sb: SessionAnalysis;
  try {
    sa = await openSide(a);
    sb = await openSide(b);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    io.stderr.write(`surface-lens compare: ${error.message}\n`);
    return 2;
  }
  const comparison = compareSessions(sa, sb);
  io.stdout.write(
    parsed.values.json === true
      ? `${JSON.stringify({ a: sa.path, b: sb.path, ...comparison })}\n`
      : formatComparison(sa.path, sb.path, comparison),
  );
  return comparison.equal ? 0 : 1;
}
