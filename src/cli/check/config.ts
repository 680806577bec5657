/**
 * `check` settings from a config file: `surface-lens.config.json`, or the `surfaceLens` key of
 * `package.json`, in the working directory (or the file given with `--config`). Command-line
 * options win over the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../command';
import { REPORT_FORMATS } from './formats';
import type { ReportFormat } from './formats';
import { FAIL_ON } from './select';
import type { FailOn } from './select';

/** What a config file may set. */
export interface CheckConfig {
  format?: ReportFormat;
  failOn?: FailOn;
  rules?: string[];
  ignoreRules?: string[];
  jobs?: number;
  /** Where the settings came from, for messages. */
  source?: string;
}

const KEYS = ['format', 'failOn', 'rules', 'ignoreRules', 'jobs'];

function validate(value: unknown, source: string): CheckConfig {
  const fail = (why: string): never => {
    throw new UsageError(`${source}: ${why}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('the settings must be a JSON object');
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) if (!KEYS.includes(key)) fail(`unknown setting ${JSON.stringify(key)} (known: ${KEYS.join(', ')})`);
  const config: CheckConfig = { source };
  if (v['format'] !== undefined) {
    if (!REPORT_FORMATS.includes(v['format'] as ReportFormat)) fail(`"format" must be one of ${REPORT_FORMATS.join(', ')}`);
    config.format = v['format'] as ReportFormat;
  }
  if (v['failOn'] !== undefined) {
    if (!FAIL_ON.includes(v['failOn'] as FailOn)) fail(`"failOn" must be one of ${FAIL_ON.join(', ')}`);
    config.failOn = v['failOn'] as FailOn;
  }
  for (const key of ['rules', 'ignoreRules'] as const) {
    const list = v[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || !list.every((x) => typeof x === 'string' && x !== ''))
      fail(`"${key}" must be a list of rule names or prefixes`);
    config[key] = list as string[];
  }
  if (v['jobs'] !== undefined) {
    if (!Number.isSafeInteger(v['jobs']) || (v['jobs'] as number) < 1) fail('"jobs" must be a whole number ≥ 1');
    config.jobs = v['jobs'] as number;
  }
  return config;
}

function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** The settings in force: the `--config` file, else the working directory's, else none. */
export function loadCheckConfig(explicit: string | undefined, cwd: string = process.cwd()): CheckConfig {
  if (explicit !== undefined) return validate(readJsonFile(explicit), explicit);
  const own = join(cwd, 'surface-lens.config.json');
  if (existsSync(own)) return validate(readJsonFile(own), own);
  const pkg = join(cwd, 'package.json');
  if (existsSync(pkg)) {
    const json = readJsonFile(pkg) as Record<string, unknown> | null;
    const settings = json && typeof json === 'object' ? json['surfaceLens'] : undefined;
    if (settings !== undefined) return validate(settings, `${pkg} ("surfaceLens")`);
  }
  return {};
}
