/**
 * The command table of `surface-lens`, in the order `--help` lists them.
 */
import type { CliCommand } from './command';
import { checkCommand } from './commands/check';
import { exportCommand } from './commands/export';
import { COMPARE_USAGE, runCompare } from './compare';
import { GREP_USAGE, runGrep } from './grep';
import { VIEW_USAGE, runView } from './view';

const grepCommand: CliCommand = {
  name: 'grep',
  summary: "search logs, directories and stores with the app's query language",
  help: GREP_USAGE,
  run: runGrep,
};

const viewCommand: CliCommand = {
  name: 'view',
  summary: 'serve the app over a session store on a local server and open it',
  help: VIEW_USAGE,
  run: (argv, io) => runView(argv, io),
};

const compareCommand: CliCommand = {
  name: 'compare',
  summary: 'compare two sessions: common prefix, divergence, model views and per-request deltas',
  help: COMPARE_USAGE,
  run: runCompare,
};

export const COMMANDS: readonly CliCommand[] = [checkCommand, grepCommand, compareCommand, exportCommand, viewCommand];
