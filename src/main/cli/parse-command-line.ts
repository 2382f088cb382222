import { parseArgs } from 'node:util';
import type { CliOptions, OptionValues } from './cli-options';
import type { CliCommand, CommandInput } from './command';
import { globalOptions } from './global-options';
import { UsageError } from './usage-error';

/**
 * The command line read in two steps: the global options before the command's name, then the
 * command's own arguments with the options its row of the table declares.
 */

/** A command line split at the command's name. */
export interface CommandLine<Global extends CliOptions = typeof globalOptions> {
  global: OptionValues<Global>;
  /** The first word that is not an option, if any. */
  commandName: string | undefined;
  /** What follows the command's name. */
  commandArgs: string[];
}

export function splitCommandLine(argv: string[]): CommandLine;
export function splitCommandLine<Global extends CliOptions>(
  argv: string[],
  options: Global,
): CommandLine<Global>;
export function splitCommandLine(
  argv: string[],
  options: CliOptions = globalOptions,
): CommandLine<CliOptions> {
  // A first, lenient pass finds where the command's name is, so a global option's value is
  // never taken for it; the options before it are then read strictly.
  const { tokens } = parseArgs({
    args: argv,
    options: parseArgsOptions(options),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const nameAt = tokens.find((token) => token.kind === 'positional')?.index ?? argv.length;
  const global = parseStrictly(argv.slice(0, nameAt), options, false, undefined).values;
  return { global, commandName: argv[nameAt], commandArgs: argv.slice(nameAt + 1) };
}

/** Every command takes --help after its name, besides its own options. */
export const commandHelpOption = {
  help: { type: 'boolean', description: 'shows this help' },
} as const satisfies CliOptions;

/** A command's arguments: its values and words, and whether its help was asked for. */
export function parseCommandArguments(
  command: CliCommand,
  args: string[],
): CommandInput<CliOptions> & { helpWanted: boolean } {
  const options = { ...command.options, ...commandHelpOption };
  const { values, positionals } = parseStrictly(args, options, command.takesWords, command.name);
  const { help, ...own } = values;
  return { values: own, positionals, helpWanted: help === true };
}

function parseStrictly<Options extends CliOptions>(
  args: string[],
  options: Options,
  takesWords: boolean,
  commandName: string | undefined,
): CommandInput<Options> {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: parseArgsOptions(options),
      strict: true,
      allowPositionals: takesWords,
    });
    return { values: values as OptionValues<Options>, positionals };
  } catch (error) {
    throw parseProblem(error, commandName) ?? error;
  }
}

/** The table's options as parseArgs takes them: a flag not given is false, not missing. */
function parseArgsOptions(options: CliOptions) {
  return Object.fromEntries(
    Object.entries(options).map(([name, option]) => [
      name,
      option.type === 'boolean'
        ? { type: option.type, default: false }
        : option.multiple
          ? { type: option.type, multiple: true, default: [] }
          : { type: option.type },
    ]),
  );
}

/**
 * Node's parser explains itself to programmers ("Option '--limit <value>' argument missing");
 * this says which option or word, for which command (whose usage the report then shows).
 */
function parseProblem(error: unknown, commandName: string | undefined): UsageError | undefined {
  if (!(error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')))
    return undefined;
  // The option as typed, without the "<value>" Node adds; or the word it did not expect.
  const option = /'(-[^' ]+)/.exec(error.message)?.[1];
  const word = /'([^']*)'/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`unknown option ${option ?? 'given'}${commandName ? ` for ${commandName}` : ''}`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new UsageError(
        /does not take an argument/.test(error.message)
          ? `${option ?? 'that option'} takes no value`
          : `${option ?? 'that option'} needs a value`,
      );
    default:
      return new UsageError(`${commandName ?? 'verbatim'} does not take ${word ? `"${word}"` : 'that'}`);
  }
}
