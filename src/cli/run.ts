/**
 * The CLI's dispatcher, separate from process wiring so tests can drive it: global flags, the
 * command table, per-command `--help`, and exit status 2 for anything it cannot use.
 */
import { COMMANDS } from './commands';
import { UsageError } from './command';
import type { CliCommand, CliIo } from './command';
import { VERSION } from './version';

export type { CliIo } from './command';

/** The top-level help: the commands and the global flags. */
export function usage(commands: readonly CliCommand[] = COMMANDS): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const list = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n');
  return `usage: surface-lens COMMAND [OPTIONS] [ARGS]

Surface Lens ${VERSION}: validate, fold and inspect DeepSeek Harness session logs.

Commands:
${list}

  surface-lens COMMAND --help   options of one command
  surface-lens --version        print the version

Exit status: 0 nothing wrong, 1 problems found, 2 usage error or unreadable input.
`;
}

/** `--help`/`-h` among a command's arguments (before a `--` that ends the options). */
function wantsHelp(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/**
 * Run the CLI.
 * @returns the exit status
 */
export async function runCli(argv: readonly string[], io: CliIo, commands: readonly CliCommand[] = COMMANDS): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr.write(usage(commands));
    return 2;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = first === 'help' ? commands.find((c) => c.name === rest[0]) : undefined;
    io.stdout.write(topic ? topic.help : usage(commands));
    return 0;
  }
  if (first === '--version' || first === '-V') {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = commands.find((c) => c.name === first);
  if (!command) {
    const what = first.startsWith('-') ? `unknown option ${first}` : `unknown command ${JSON.stringify(first)}`;
    io.stderr.write(`surface-lens: ${what}\n\n${usage(commands)}`);
    return 2;
  }
  if (wantsHelp(rest)) {
    io.stdout.write(command.help);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`surface-lens ${command.name}: ${error.message}\n\n${command.help}`);
    return 2;
  }
}
