import { describe, expect, it } from 'vitest';
import type { CliCommand } from './command';
import { parseCommandArguments, splitCommandLine } from './parse-command-line';
import { UsageError } from './usage-error';

const sample: CliCommand = {
  name: 'sample',
  usage: ['<id> [--out PATH] [--json]'],
  summary: 'Does the sample thing.',
  options: {
    out: { type: 'string', valueName: 'PATH', description: 'where it goes' },
    json: { type: 'boolean', description: 'prints JSON' },
  },
  takesWords: true,
  run: () => Promise.resolve(0),
};
const wordless: CliCommand = { ...sample, name: 'wordless', takesWords: false };

function problem(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error('it parsed');
}

describe('the global options, read before the command', () => {
  it('splits at the command, whose arguments are left for it', () => {
    expect(splitCommandLine(['--help', 'export', '--json', 'x'])).toEqual({
      global: { help: true, verbose: false },
      commandName: 'export',
      commandArgs: ['--json', 'x'],
    });
    expect(splitCommandLine(['--verbose', 'jobs'])).toEqual({
      global: { help: false, verbose: true },
      commandName: 'jobs',
      commandArgs: [],
    });
    expect(splitCommandLine([])).toEqual({
      global: { help: false, verbose: false },
      commandName: undefined,
      commandArgs: [],
    });
  });

  it("never takes a global option's value for the command", () => {
    const options = {
      log: { type: 'string', valueName: 'FILE', description: 'where the log goes' },
    } as const;
    expect(splitCommandLine(['--log', 'jobs', 'show', 'x'], options)).toEqual({
      global: { log: 'jobs' },
      commandName: 'show',
      commandArgs: ['x'],
    });
  });

  it('refuses an option it does not know, before any command runs', () => {
    expect(problem(() => splitCommandLine(['--frobnicate', 'jobs']))).toBe('unknown option --frobnicate');
  });
});

describe("a command's arguments, read with its own options", () => {
  it('gives flags as true or false, values as given, and the words in order', () => {
    expect(parseCommandArguments(sample, ['a', '--json', 'b'])).toEqual({
      values: { json: true, out: undefined },
      positionals: ['a', 'b'],
      helpWanted: false,
    });
    expect(parseCommandArguments(sample, ['--out', 'x.txt'])).toMatchObject({
      values: { json: false, out: 'x.txt' },
    });
    expect(parseCommandArguments(sample, ['id', '--help']).helpWanted).toBe(true);
  });

  it('says what is wrong in words, naming the option or word and the command', () => {
    expect(problem(() => parseCommandArguments(sample, ['--wait']))).toBe('unknown option --wait for sample');
    expect(problem(() => parseCommandArguments(sample, ['--out']))).toBe('--out needs a value');
    expect(problem(() => parseCommandArguments(sample, ['--json=yes']))).toBe('--json takes no value');
    expect(problem(() => parseCommandArguments(wordless, ['two words']))).toBe(
      'wordless does not take "two words"',
    );
  });
});
