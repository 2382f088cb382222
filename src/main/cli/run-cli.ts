import { terminalIo, type CliIo } from './cli-io';
import type { CliCommand, CommandContext } from './command';
import { loadCommand, loadEveryCommand } from './command-table';
import { checkServiceAddresses } from './environment';
import { commandHelp, overallHelp, usageOf } from './help';
import { openLibrarySession, upgradeOldLibrary, type LibrarySession } from './library-session';
import { parseCommandArguments, splitCommandLine } from './parse-command-line';
import { reportFailure } from './report-failure';
import { UsageError } from './usage-error';

/**
 * Verbatim without a window: the same core as the app, driven from a terminal or a script.
 * Exit codes: 0 success, 1 a job ended in error, 2 bad usage or input.
 */
export async function runCli(argv: string[], streams: CliIo): Promise<number> {
  // A title or file name with terminal escapes in it is shown, never acted on (issue #32).
  const io = terminalIo(streams);
  let command: CliCommand | undefined;
  let library: LibrarySession | undefined;
  try {
    const line = splitCommandLine(argv);
    const asked = await helpAsked(line.global.help, line.commandName, line.commandArgs);
    if (asked) return await showHelp(asked, io);
    command = await findCommand(line.commandName!);
    checkServiceAddresses(io.env);
    const { helpWanted, ...input } = parseCommandArguments(command, line.commandArgs);
    if (helpWanted) return await showHelp({ command }, io);
    if (command.upgradesLibraryFirst !== false) await upgradeOldLibrary(io);
    const context: CommandContext = {
      io,
      global: line.global,
      openLibrary: (options) =>
        (library ??= openLibrarySession(io, { ...options, verbose: line.global.verbose })),
    };
    return await command.run(input, context);
  } catch (error) {
    const failed = command;
    // The overall help, shown under a mistake made before a command was chosen, loads them all.
    const everyCommand = failed || !(error instanceof UsageError) ? [] : await loadEveryCommand();
    return reportFailure(error, io, () => (failed ? usageOf(failed) : overallHelp(everyCommand)));
  } finally {
    // Closed only once a failure has been reported: what the person reads comes first.
    await library?.close();
  }
}

/** Which help a command line asks for, if it asks for one rather than naming a command to run. */
type HelpRequest = { command: CliCommand } | { overall: 'asked' | 'no command' };

async function helpAsked(
  helpOption: boolean,
  commandName: string | undefined,
  commandArgs: string[],
): Promise<HelpRequest | undefined> {
  if (commandName === undefined) return { overall: helpOption ? 'asked' : 'no command' };
  if (commandName === 'help') {
    const about = commandArgs[0];
    return about === undefined ? { overall: 'asked' } : { command: await findCommand(about) };
  }
  return helpOption ? { command: await findCommand(commandName) } : undefined;
}

/** Prints the help asked for; a bare `npm run cli` gets the overall help too, but exits 2. */
async function showHelp(request: HelpRequest, io: CliIo): Promise<number> {
  if ('command' in request) {
    io.out(commandHelp(request.command));
    return 0;
  }
  io.out(overallHelp(await loadEveryCommand()));
  return request.overall === 'asked' ? 0 : 2;
}

async function findCommand(name: string): Promise<CliCommand> {
  const command = await loadCommand(name);
  if (!command) throw new UsageError(`unknown command "${name}"`);
  return command;
}
