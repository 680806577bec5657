/**
 * `surface-lens check PATH...`: validate session logs — files, export ZIPs, session
 * directories, whole stores — and report one record per session.
 */
import { walkSessions } from '../../node/store';
import { checkFile } from '../check/check-file';
import type { FileCheck } from '../check/check-file';
import { UsageError, parseCommandArgs } from '../command';
import type { CliCommand, CliIo } from '../command';

const HELP = `usage: surface-lens check PATH... [--json] [--memory-limit SIZE]

Validate DeepSeek Harness session logs and fold their model-visible surface. A PATH is a log
file (session.jsonl, session.jsonl.zstd, export ZIP, stream-json, JSON array) or a directory:
a session store root, a project or session directory, or any folder. Directories are walked;
what is passed over is named on stderr with the reason.

  --json                one JSON object per session per line (JSON Lines)
  --memory-limit SIZE   stop reading a file cleanly (rule decode/memory-limit) before its load
                        would hold more than SIZE (bytes, or with K, M, G: 512M, 2G); by
                        default no limit is set (Node has its own heap limit)
  -h, --help            show this help

Exit status: 0 nothing wrong, 1 a surface error, decode error or error diagnostic, or no
session found, 2 usage error or unreadable input.
`;

const OPTIONS = {
  json: { type: 'boolean' },
  'memory-limit': { type: 'string' },
} as const;

/** `512M`, `2G`, `1.5GiB`, `1000000` → bytes (binary units), or null when it is not a size. */
export function parseSize(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*(?:([KMGT])(?:i?B)?|B)?$/i.exec(text.trim());
  if (!match) return null;
  const unit = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 }[(match[2] ?? '').toUpperCase() as 'K' | 'M' | 'G' | 'T'] ?? 1;
  const bytes = Math.floor(Number(match[1]) * unit);
  return Number.isFinite(bytes) && bytes > 0 ? bytes : null;
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, OPTIONS);
  let memoryLimitBytes: number | undefined;
  const limit = values['memory-limit'];
  if (limit !== undefined) {
    const bytes = parseSize(limit);
    if (bytes === null) throw new UsageError(`--memory-limit needs a size such as 512M or 2G, got ${JSON.stringify(limit)}`);
    memoryLimitBytes = bytes;
  }
  if (positionals.length === 0) throw new UsageError('check needs at least one PATH (a log file or a directory)');
  const json = values.json === true;

  let status = 0;
  const walk = await walkSessions(positionals);
  const inputs = new Set(positionals);
  for (const skipped of walk.skipped) {
    // An input that cannot be used at all is an error; entries passed over inside a directory are news.
    if (inputs.has(skipped.path) && skipped.reason !== 'duplicate') {
      io.stderr.write(`surface-lens: ${skipped.message}\n`);
      status = 2;
    } else {
      io.stderr.write(`surface-lens: skipped ${skipped.reason}: ${skipped.message}\n`);
    }
  }
  for (const note of walk.notes) io.stderr.write(`surface-lens: note [${note.rule}]: ${note.message}\n`);

  const report = (file: FileCheck): void => {
    if (file.readError !== null) {
      io.stderr.write(`surface-lens: ${file.readError}\n`);
      status = 2;
      return;
    }
    if (file.sessions.length === 0) {
      io.stderr.write(`surface-lens: ${file.path}: no session found\n`);
      status = Math.max(status, 1);
    }
    for (const finding of file.findings) {
      if (!json) io.stdout.write(`${file.path}: ${finding.severity} [${finding.rule}] ${finding.message}\n`);
      if (finding.severity === 'error') status = Math.max(status, 1);
    }
    for (const session of file.sessions) {
      io.stdout.write(json ? `${JSON.stringify(session.record)}\n` : session.human);
      if (session.problems) status = Math.max(status, 1);
    }
  };
  for (const source of walk.sources) report(await checkFile(source.path, memoryLimitBytes === undefined ? {} : { memoryLimitBytes }));
  if (walk.sources.length === 0 && status === 0) {
    io.stderr.write(`surface-lens: no session log found in ${positionals.join(', ')}\n`);
    status = 1;
  }
  return status;
}

export const checkCommand: CliCommand = {
  name: 'check',
  summary: 'validate logs, session directories and stores; one record per session',
  help: HELP,
  run,
};
