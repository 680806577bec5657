/**
 * The command table of `surface-lens`, in the order `--help` lists them.
 */
import type { CliCommand } from './command';
import { checkCommand } from './commands/check';
import { GREP_USAGE, runGrep } from './grep';

const grepCommand: CliCommand = {
  name: 'grep',
  summary: 'search logs, directories and stores with the app\'s query language',
  help: GREP_USAGE,
  run: runGrep,
};

export const COMMANDS: readonly CliCommand[] = [checkCommand, grepCommand];
