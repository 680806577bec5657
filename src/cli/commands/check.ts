/**
 * `surface-lens check PATH...`: validate session logs — files, export ZIPs, session
 * directories, whole stores — on several threads, and report one record per session.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parsePriceList } from '../../core/analysis/cost';
import type { PriceList } from '../../core/analysis/cost';
import { syncWalkFs, walkSessions } from '../../node/store';
import type { SkipReason } from '../../node/store';
import { loadCheckConfig } from '../check/config';
import { REPORT_FORMATS, finalReport } from '../check/formats';
import type { ReportFormat, ReportItem } from '../check/formats';
import { CheckPool, autoParallelBytes } from '../check/pool';
import { FAIL_ON } from '../check/select';
import type { FailOn, RuleSelection } from '../check/select';
import { viewSessionId } from '../../server/session-id';
import { UsageError, integerOption, parseCommandArgs } from '../command';
import type { CliCommand, CliIo } from '../command';

/** What the default `--jobs` does on this machine, for the help. */
const AUTO_JOBS =
  availableParallelism() < 2
    ? 'one core here: the calling thread'
    : `${availableParallelism()} here, once the run holds ${Math.round(autoParallelBytes(availableParallelism()) / 2 ** 20)} MiB of logs,\n                        below which threads cost more than they gain`;

const HELP = `usage: surface-lens check PATH... [--format FORMAT] [--fail-on LEVEL] [--jobs N] [OPTIONS]

Validate DeepSeek Harness session logs and fold their model-visible surface. A PATH is a log
file (session.jsonl, session.jsonl.zstd, export ZIP, stream-json, JSON array) or a directory:
a session store root, a project or session directory, or any folder. Directories are walked;
what is passed over is named on stderr with the reason.

  --format FORMAT       human (default), json (JSON Lines: one object per session),
                        md (Markdown, for a pull-request comment), html (one self-contained
                        page: sortable table, each session's context curve), junit (JUnit XML)
  --json                the same as --format json
  --fail-on LEVEL       error (default), warning or never: what makes the exit status 1
  --rule RULE           report only this rule, or rules under this prefix (qa/, surface/);
                        repeatable
  --ignore-rule RULE    never report this rule or prefix; repeatable; wins over --rule
  --view-url URL        with --format html: link each session to the app served by
                        \`surface-lens view\` at URL (the address it printed, token included),
                        started over the same PATHs, so the links name its sessions
  --jobs N              check on N worker threads; 1, or a run of a few small files,
                        checks on the calling thread (default: the number of cores,
                        ${AUTO_JOBS})
  --config FILE         settings file (default: ./surface-lens.config.json, or the
                        "surfaceLens" key of ./package.json): format, failOn, rules,
                        ignoreRules, jobs; options given here win
  --memory-limit SIZE   stop reading a file cleanly (rule decode/memory-limit) before its load
                        would hold more than SIZE (bytes, or with K, M, G: 512M, 2G); by
                        default no limit is set (Node has its own heap limit)
  --prices FILE.json    prices per model, dollars per million tokens, for the JSON record's
                        "cost" (logs record none): {"MODEL": {"input": 3, "output": 15,
                        "cacheRead": 0.3, "cacheWrite": 3.75}, "*": {…}}; "*" prices every
                        model not listed; cache prices default to the input price
  -h, --help            show this help

Progress is shown on stderr when it is a terminal.

Exit status: 0 nothing failed, 1 a session failed (--fail-on) or no session was found,
2 usage error or unreadable input.
`;

const OPTIONS = {
  json: { type: 'boolean' },
  format: { type: 'string' },
  'fail-on': { type: 'string' },
  rule: { type: 'string', multiple: true },
  'ignore-rule': { type: 'string', multiple: true },
  jobs: { type: 'string', short: 'j' },
  config: { type: 'string' },
  'memory-limit': { type: 'string' },
  'view-url': { type: 'string' },
  prices: { type: 'string' },
} as const;

/** `--view-url`: an http(s) address, or a {@link UsageError}. */
function viewUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--view-url needs an address such as http://127.0.0.1:7380/, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--view-url needs an http or https address, got ${JSON.stringify(text)}`);
  return url;
}

/** The `--prices` file, or a usage error that says what is wrong with it. */
function readPrices(path: string): PriceList {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--prices ${path}: ${(error as Error).message}`);
  }
  const parsed = parsePriceList(value);
  if ('error' in parsed) throw new UsageError(`--prices ${path}: ${parsed.error}`);
  return parsed.prices;
}

/** Skips worth a line in a report (the rest — READMEs, hidden folders — stay on stderr only). */
const REPORTED_SKIPS: ReadonlySet<SkipReason> = new Set(['flat-layout', 'special-file']);

/** `512M`, `2G`, `1.5GiB`, `1000000` → bytes (binary units), or null when it is not a size. */
export function parseSize(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*(?:([KMGT])(?:i?B)?|B)?$/i.exec(text.trim());
  if (!match) return null;
  const unit = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 }[(match[2] ?? '').toUpperCase() as 'K' | 'M' | 'G' | 'T'] ?? 1;
  const bytes = Math.floor(Number(match[1]) * unit);
  return Number.isFinite(bytes) && bytes > 0 ? bytes : null;
}

function oneOf<T extends string>(option: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) throw new UsageError(`${option} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  return value as T;
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, OPTIONS);
  const config = loadCheckConfig(values.config);
  let memoryLimitBytes: number | undefined;
  const limit = values['memory-limit'];
  if (limit !== undefined) {
    const bytes = parseSize(limit);
    if (bytes === null) throw new UsageError(`--memory-limit needs a size such as 512M or 2G, got ${JSON.stringify(limit)}`);
    memoryLimitBytes = bytes;
  }
  if (values.json === true && values.format !== undefined && values.format !== 'json')
    throw new UsageError(`--json and --format ${values.format} disagree`);
  const format: ReportFormat = oneOf('--format', values.json === true ? 'json' : values.format, REPORT_FORMATS) ?? config.format ?? 'human';
  const failOn: FailOn = oneOf('--fail-on', values['fail-on'], FAIL_ON) ?? config.failOn ?? 'error';
  const chosenJobs = integerOption('--jobs', values.jobs, 1, 1024) ?? config.jobs;
  const jobs = chosenJobs ?? availableParallelism();
  const selection: RuleSelection = { rules: values.rule ?? config.rules ?? [], ignore: values['ignore-rule'] ?? config.ignoreRules ?? [] };
  if (positionals.length === 0) throw new UsageError('check needs at least one PATH (a log file or a directory)');
  const base = values['view-url'] === undefined ? null : viewUrl(values['view-url']);
  if (base !== null && format !== 'html') throw new UsageError('--view-url is for --format html');
  // The ids `surface-lens view PATH...` gives these files (its deep link is #session=ID).
  const linkOf = (file: string): string | null => {
    const id = base === null ? null : viewSessionId(positionals, file);
    if (base === null || id === null) return null;
    const url = new URL(base);
    url.hash = `session=${id}`;
    return url.toString();
  };
  const prices = values.prices === undefined ? null : readPrices(values.prices);
  if (prices !== null && format !== 'json') throw new UsageError('--prices is for --format json');

  let status = 0;
  const items: ReportItem[] = [];
  // The workers start on the first files while the walk goes on; reports are delivered after it,
  // so what the walk passed over is named first, as on one thread.
  const pool = new CheckPool({
    jobs,
    auto: chosenJobs === undefined,
    spawn: io.spawnWorker,
    check: {
      ...(memoryLimitBytes === undefined ? {} : { memoryLimitBytes }),
      ...(format === 'html' ? { curve: true } : {}),
      ...(format === 'json' ? { record: true } : {}),
    },
    report: { format, selection, failOn, prices },
  });
  let walk: Awaited<ReturnType<typeof walkSessions>>;
  try {
    walk = await walkSessions(positionals, { fs: syncWalkFs(), onSource: (source) => pool.add(source.path, source.size) });
  } catch (error) {
    await pool.stop();
    throw error;
  }
  const inputs = new Set(positionals);
  for (const skipped of walk.skipped) {
    // An input that cannot be used at all is an error; entries passed over inside a directory are news.
    if (inputs.has(skipped.path) && skipped.reason !== 'duplicate') {
      io.stderr.write(`surface-lens: ${skipped.message}\n`);
      items.push({ kind: 'unreadable', path: skipped.path, message: skipped.message });
      status = 2;
    } else {
      io.stderr.write(`surface-lens: skipped ${skipped.reason}: ${skipped.message}\n`);
      if (REPORTED_SKIPS.has(skipped.reason))
        items.push({ kind: 'skipped', path: skipped.path, reason: skipped.reason, message: skipped.message });
    }
  }
  for (const note of walk.notes) io.stderr.write(`surface-lens: note [${note.rule}]: ${note.message}\n`);

  const progress = io.stderr.isTTY === true && walk.sources.length > 1;
  await pool.finish(
    (file) => {
      if (progress) io.stderr.write('\r\x1b[K');
      if (file.stderr) io.stderr.write(file.stderr);
      if (file.stdout) io.stdout.write(file.stdout);
      for (const item of file.items) items.push(item);
      status = Math.max(status, file.status);
    },
    progress ? (done: number, total: number) => io.stderr.write(`\r\x1b[Kchecked ${done} of ${total} files`) : undefined,
  );
  if (progress) io.stderr.write('\r\x1b[K');
  const final = finalReport(format, items, base === null ? {} : { linkOf });
  if (final) io.stdout.write(final);
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
