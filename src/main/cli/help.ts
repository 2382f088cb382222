import type { CliOptions } from './cli-options';
import type { CliCommand } from './command';
import { environmentHelp } from './environment';
import { globalOptions } from './global-options';
import { commandHelpOption } from './parse-command-line';

/** The help and the usage shown with a mistake, all written from the command table. */

const invocation = 'npm run cli --';
/** Where a long form's later lines start, under its options. */
const continuationIndent = ' '.repeat(9);

/** Everything: each command's forms and what it does, the global options and the environment. */
export function overallHelp(commands: readonly CliCommand[]): string {
  const commandLines = commands.flatMap((command) => [
    ...command.usage.flatMap((form) => indentForm(`  ${command.name} ${form}`)),
    `    ${command.summary}`,
  ]);
  return [
    `Usage: ${invocation} <command> [options]`,
    `       ${invocation} <command> --help   (what each of its options does)`,
    '',
    ...commandLines,
    '',
    'Options before the command:',
    ...optionLines(globalOptions),
    '',
    environmentHelp,
  ].join('\n');
}

/** One command's usage, what it does and each of its options. */
export function commandHelp(command: CliCommand): string {
  return [
    usageOf(command),
    '',
    command.summary,
    '',
    'Options:',
    ...optionLines({ ...command.options, ...commandHelpOption }),
  ].join('\n');
}

/** One command's forms, for a mistake in that command: "Usage: npm run cli -- export <id> …". */
export function usageOf(command: CliCommand): string {
  return command.usage
    .flatMap((form, index) =>
      indentForm(`${index === 0 ? 'Usage:' : '      '} ${invocation} ${command.name} ${form}`),
    )
    .join('\n');
}

/** A form's first line as it is, the lines it breaks into indented under it. */
function indentForm(form: string): string[] {
  const [first, ...rest] = form.split('\n');
  return [first!, ...rest.map((line) => `${continuationIndent}${line}`)];
}

/** "  --out PATH   the file to write", the descriptions lined up. */
function optionLines(options: CliOptions): string[] {
  const entries = Object.entries(options).map(([name, option]) => ({
    flag:
      option.type === 'string'
        ? `--${name} ${option.valueName}${option.multiple ? ' (repeatable)' : ''}`
        : `--${name}`,
    description: option.description,
  }));
  const width = Math.max(...entries.map((entry) => entry.flag.length));
  return entries.map((entry) => `  ${entry.flag.padEnd(width)}  ${entry.description}`);
}
