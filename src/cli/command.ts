/**
 * The shape of one `surface-lens` command, and argument parsing on `node:util`'s `parseArgs`.
 * Adding a command is one module exporting a {@link CliCommand} and one entry in `commands.ts`.
 */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import type { Worker } from 'node:worker_threads';

/** Where the CLI writes, and how it starts worker threads. */
export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  /**
   * Start a worker thread running the CLI's worker entry (`main.ts` with the check-worker role).
   * Without it, commands do all their work on the calling thread whatever `--jobs` says.
   */
  spawnWorker?: () => Worker;
}

/** One command of the table. */
export interface CliCommand {
  /** The word after `surface-lens`. */
  readonly name: string;
  /** One line for the command list of `surface-lens --help`. */
  readonly summary: string;
  /** The full `surface-lens NAME --help` text (usage line, options, exit status). */
  readonly help: string;
  /**
   * Run with the arguments after the command name (`--help` is handled before this).
   * @returns the exit status; throw {@link UsageError} for arguments it cannot use
   */
  run(argv: readonly string[], io: CliIo): Promise<number>;
}

/** Arguments a command cannot use: the CLI prints the message and the command's usage, and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The options object `parseArgs` takes. */
export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/**
 * Parse a command's arguments strictly: unknown options and missing values become a
 * {@link UsageError} with a short message instead of `parseArgs`' own wording.
 */
export function parseCommandArgs<const O extends OptionsConfig>(argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const option = /'([^']+)'/.exec(message)?.[1] ?? message;
      throw new UsageError(`unknown option ${option}`);
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const option = /'(-[^' ]+)/.exec(message)?.[1];
      throw new UsageError(option ? `${option} needs a value` : message);
    }
    throw new UsageError(message);
  }
}

/** `--jobs 4` style integer option: a whole number within [min, max], or a {@link UsageError}. */
export function integerOption(name: string, text: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(
      `${name} needs a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}, got ${JSON.stringify(text)}`,
    );
  }
  return value;
}
