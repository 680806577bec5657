/**
 * The CLI's logic, separate from process wiring so tests can drive it.
 */
import { openSync, fstatSync, readSync, closeSync } from 'node:fs';
import { openBytes } from '../core/analyze/open';
import type { SessionAnalysis } from '../core/analyze/session';
import { hasProblems } from '../core/analyze/summary';
import { formatHuman, toJsonRecord } from './format';
import { runGrep } from './grep';
import { runView } from './view';

/** Where the CLI writes. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export const USAGE = `usage: surface-lens check FILE... [--json]
       surface-lens grep QUERY PATH... [--json]   (surface-lens grep --help)
       surface-lens view [PATH...] [--port N] [--host H] [--no-open]   (surface-lens view --help)

Validate DeepSeek Harness session logs (session.jsonl, session.jsonl.zstd, export ZIP,
stream-json, JSON array) and fold their model-visible surface.

  --json                one JSON object per session per line (JSON Lines)
  --memory-limit SIZE   stop reading a file cleanly (rule decode/memory-limit) before its load
                        would hold more than SIZE (bytes, or with K, M, G: 512M, 2G); by
                        default no limit is set (Node has its own heap limit)
  --help                show this help

Exit status: 0 nothing wrong, 1 a surface error, decode error or error diagnostic,
2 usage error or unreadable file.
`;

/** Largest input read (a Uint8Array and a typed-array index both stay within 2 GiB here). */
const MAX_BYTES = 2 ** 31 - 1;

class CliError extends Error {}

/** `512M`, `2G`, `1.5GiB`, `1000000` → bytes (binary units), or null when it is not a size. */
export function parseSize(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*(?:([KMGT])(?:i?B)?|B)?$/i.exec(text.trim());
  if (!match) return null;
  const unit = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 }[(match[2] ?? '').toUpperCase() as 'K' | 'M' | 'G' | 'T'] ?? 1;
  const bytes = Math.floor(Number(match[1]) * unit);
  return Number.isFinite(bytes) && bytes > 0 ? bytes : null;
}

/** Read a regular file whole; refuse directories, devices, FIFOs and oversized files. */
function readRegularFile(path: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new CliError(`cannot open ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new CliError(`${path} is not a regular file`);
    if (stat.size > MAX_BYTES) throw new CliError(`${path} is ${stat.size} bytes; the limit is ${MAX_BYTES}`);
    const bytes = new Uint8Array(stat.size);
    let offset = 0;
    while (offset < bytes.length) {
      const n = readSync(fd, bytes, offset, bytes.length - offset, offset);
      if (n === 0) break;
      offset += n;
    }
    return offset === bytes.length ? bytes : bytes.subarray(0, offset);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

/**
 * Run the CLI.
 * @returns the exit status
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const args = [...argv];
  if (args[0] === 'grep') return runGrep(args.slice(1), io);
  if (args[0] === 'view') return runView(args.slice(1), io);
  if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
    (args.length === 0 ? io.stderr : io.stdout).write(USAGE);
    return args.length === 0 ? 2 : 0;
  }
  const command = args.shift();
  if (command !== 'check') {
    io.stderr.write(`surface-lens: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
    return 2;
  }
  let memoryLimit: number | undefined;
  const limitAt = args.findIndex((a) => a === '--memory-limit' || a.startsWith('--memory-limit='));
  if (limitAt >= 0) {
    const option = args[limitAt] as string;
    const inline = option.startsWith('--memory-limit=');
    const value = inline ? option.slice('--memory-limit='.length) : args[limitAt + 1];
    const bytes = value === undefined ? null : parseSize(value);
    if (bytes === null) {
      io.stderr.write(`surface-lens: --memory-limit needs a size such as 512M or 2G, got ${JSON.stringify(value ?? '')}\n\n${USAGE}`);
      return 2;
    }
    memoryLimit = bytes;
    args.splice(limitAt, inline ? 1 : 2);
  }
  const json = args.includes('--json');
  const unknown = args.filter((a) => a.startsWith('-') && a !== '--json');
  if (unknown.length > 0) {
    io.stderr.write(`surface-lens: unknown option ${unknown[0]}\n\n${USAGE}`);
    return 2;
  }
  const files = args.filter((a) => !a.startsWith('-'));
  if (files.length === 0) {
    io.stderr.write(`surface-lens: check needs at least one FILE\n\n${USAGE}`);
    return 2;
  }
  let status = 0;
  for (const file of files) {
    let bytes: Uint8Array;
    try {
      bytes = readRegularFile(file);
    } catch (error) {
      io.stderr.write(`surface-lens: ${(error as Error).message}\n`);
      status = 2;
      continue;
    }
    const result = await openBytes(bytes, {
      name: file,
      ...(memoryLimit === undefined ? {} : { memoryLimitBytes: memoryLimit, memoryLimitName: 'the --memory-limit' }),
    });
    if (result.sessions.length === 0) {
      io.stderr.write(`surface-lens: ${file}: no session found\n`);
      status = Math.max(status, 1);
    }
    for (const finding of result.findings) {
      if (!json) io.stdout.write(`${file}: ${finding.severity} [${finding.rule}] ${finding.message}\n`);
      if (finding.severity === 'error') status = Math.max(status, 1);
    }
    for (const session of result.sessions) {
      io.stdout.write(json ? `${JSON.stringify(toJsonRecord(session))}\n` : formatHuman(session));
      if (hasProblems(session)) status = Math.max(status, 1);
    }
  }
  return status;
}

export type { SessionAnalysis };
