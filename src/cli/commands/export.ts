/**
 * `surface-lens export FILE [--html OUT] [--jsonl OUT] [--step K] [--seq S] [--redact]`: a file
 * to send. The log itself (optionally cut at step K: a minimal repro that folds as the first K
 * events), or one self-contained HTML page holding the viewer and the session, opening offline
 * at that step. `--redact` rewrites secrets, home-directory paths and e-mail addresses first and
 * prints what it replaced (counts per kind, never the values).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { SessionAnalysis } from '../../core/analyze/session';
import { exportLogText } from '../../core/export/log';
import { standaloneHtml } from '../../core/export/standalone';
import { Redactor, formatRedactReport } from '../../core/redact';
import { ReadError, openLogFile } from '../../node/store';
import { UsageError, integerOption, parseCommandArgs } from '../command';
import type { CliCommand, CliIo } from '../command';
import { projectDir } from '../view';

const HELP = `usage: surface-lens export FILE [--html OUT] [--jsonl OUT] [--step K] [--seq S] [--redact]

Write a session to send to someone who does not have it. FILE is any log the app opens
(session.jsonl, session.jsonl.zstd, an export ZIP, stream-json, a JSON array, gzip).

  --jsonl OUT        write the log as session JSONL (rows kept as they are unless redacted)
  --html OUT         write one self-contained HTML page: the viewer and the session
                     (compressed); it opens offline, loads nothing, at the step given
  --step K           keep only the first K events (the cursor at step K): a minimal repro
                     that folds exactly as the first K events did; the page opens there
  --seq S            the event the page selects when it opens
  --session N        which session of an export ZIP (0 is the root session; default 0)
  --redact           replace secrets (API keys and tokens by their well-known shapes, bearer
                     headers, private keys), home-directory paths and e-mail addresses in
                     every string before anything is written; the fold is unchanged
  --redact-report OUT  also write what --redact replaced (counts per kind) to OUT
  -h, --help         show this help

With --redact, what was replaced is printed on stderr (counts per kind, never a value).

Exit status: 0 written, 1 the file holds no session, 2 usage error or unreadable input.
`;

const OPTIONS = {
  html: { type: 'string' },
  jsonl: { type: 'string' },
  step: { type: 'string' },
  seq: { type: 'string' },
  session: { type: 'string' },
  redact: { type: 'boolean' },
  'redact-report': { type: 'string' },
} as const;

/** The built single-file viewer, shipped in the package's `dist/`. */
export function standaloneTemplatePath(): string {
  return join(projectDir(), 'dist', 'standalone.html');
}

/** Where the command finds what it needs; tests give a viewer built elsewhere. */
export interface ExportDeps {
  /** The built single-file viewer. @default {@link standaloneTemplatePath} */
  templatePath?: string;
}

async function run(argv: readonly string[], io: CliIo, deps: ExportDeps): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, OPTIONS);
  if (positionals.length !== 1)
    throw new UsageError(positionals.length === 0 ? 'export needs a FILE' : `export takes one FILE, got ${positionals.length}`);
  if (values.html === undefined && values.jsonl === undefined) throw new UsageError('export needs --html OUT or --jsonl OUT (or both)');
  if (values['redact-report'] !== undefined && values.redact !== true) throw new UsageError('--redact-report needs --redact');
  const step = integerOption('--step', values.step, 0);
  const seq = integerOption('--seq', values.seq, 0);
  const index = integerOption('--session', values.session, 0) ?? 0;
  const file = positionals[0] as string;

  let template: string | null = null;
  if (values.html !== undefined) {
    const path = deps.templatePath ?? standaloneTemplatePath();
    if (!existsSync(path)) {
      io.stderr.write(`surface-lens export: the viewer is not built (no ${path}); run \`npm run build\`\n`);
      return 2;
    }
    template = readFileSync(path, 'utf8');
  }

  let session: SessionAnalysis;
  try {
    const result = await openLogFile(file);
    if (result.sessions.length === 0) {
      io.stderr.write(`surface-lens export: ${file}: no session found\n`);
      return 1;
    }
    const chosen = result.sessions[index];
    if (!chosen)
      throw new UsageError(
        `--session ${index}: ${file} holds ${result.sessions.length} session${result.sessions.length === 1 ? '' : 's'} (0 to ${result.sessions.length - 1})`,
      );
    session = chosen;
  } catch (error) {
    if (error instanceof ReadError) {
      io.stderr.write(`surface-lens export: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (step !== undefined && step > session.log.length)
    throw new UsageError(`--step ${step}: ${session.path} has ${session.log.length} events`);
  if (session.decodeError)
    io.stderr.write(
      `surface-lens export: note: ${session.path} could not be read whole (${session.decodeError.message}); what was decoded is written\n`,
    );

  // One redactor for both outputs: the page and the log carry the same markers.
  const redactor = values.redact === true ? new Redactor() : undefined;
  const options = { step, redactor };
  const jsonl = exportLogText(session, options);
  if (values.jsonl !== undefined) writeFileSync(values.jsonl, jsonl);
  if (values.html !== undefined && template !== null) {
    const name = `${basename(file).replace(/(\.(jsonl|zstd|zst|gz|zip|json))+$/i, '') || 'session'}${step === undefined ? '' : `.step-${step}`}.jsonl`;
    writeFileSync(values.html, standaloneHtml(template, session, { ...options, name, seq: seq ?? null, jsonl }));
  }
  if (redactor) {
    const report = formatRedactReport(redactor.report());
    io.stderr.write(report);
    if (values['redact-report'] !== undefined) writeFileSync(values['redact-report'], `${JSON.stringify(redactor.report(), null, 2)}\n`);
  }
  return 0;
}

/** The `export` command, with its dependencies. */
export function createExportCommand(deps: ExportDeps = {}): CliCommand {
  return {
    name: 'export',
    summary: 'write a session to send: its log cut at a step, or one self-contained HTML page',
    help: HELP,
    run: (argv, io) => run(argv, io, deps),
  };
}

export const exportCommand: CliCommand = createExportCommand();
