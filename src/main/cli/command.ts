import type { TerminalIo } from './cli-io';
import type { CliOptions, OptionValues } from './cli-options';
import type { GlobalValues } from './global-options';
import type { LibrarySession } from './library-session';

/**
 * What one command of the command line is, as a row of the command table (command-table.ts).
 * The parsing, `--help` and the usage shown with a mistake are all made from these rows, so a
 * command's options cannot be parsed one way and explained another.
 */

/** What a command's handler gets from its command line. */
export interface CommandInput<Options extends CliOptions> {
  values: OptionValues<Options>;
  /** The words that are not options (ids, files, a question), in order. */
  positionals: string[];
}

/** What every command may use besides its own arguments. */
export interface CommandContext {
  /** Output that neutralises terminal controls (cli-io.ts); progress alone may redraw its line. */
  io: TerminalIo;
  /** The options given before the command's name (global-options.ts). */
  global: GlobalValues;
  /**
   * The library, its scheduler and clients for this data folder, opened on first call and
   * closed once the command has ended and any failure has been reported.
   */
  openLibrary: (options: { showProgress: boolean }) => LibrarySession;
}

export interface CliCommand<Options extends CliOptions = CliOptions> {
  /** The word that chooses it: `npm run cli -- <name>`. */
  name: string;
  /**
   * How it is called, after its name, one form per entry (catalog has four). A `\n` breaks a
   * long form; the help indents what follows.
   */
  usage: readonly string[];
  /** One sentence: what it does, for the overall help and its own. */
  summary: string;
  options: Options;
  /** Whether words other than options may follow the name. */
  takesWords: boolean;
  /**
   * False for a command that must find the library as it is (`library repair` reads a damaged
   * one); before any other runs, an old library is upgraded, its progress on standard error.
   */
  upgradesLibraryFirst?: false;
  /** Runs the command; resolves to the exit code (0 success, 1 a job or request failed). */
  run(input: CommandInput<Options>, context: CommandContext): Promise<number>;
}

/** A row of the command table, its handler typed by its own options. */
export function defineCommand<const Options extends CliOptions>(command: CliCommand<Options>): CliCommand {
  return command;
}
