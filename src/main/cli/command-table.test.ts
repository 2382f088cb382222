import { describe, expect, it } from 'vitest';
import { commandTable, loadEveryCommand } from './command-table';
import { commandHelpOption } from './parse-command-line';

const everyCommand = await loadEveryCommand();

describe('the command table', () => {
  it('loads, for each name, the command of that name', () => {
    expect(everyCommand.map((command) => command.name)).toEqual(commandTable.map((entry) => entry.name));
  });

  it('names each command once', () => {
    const names = everyCommand.map((command) => command.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain('help'); // `help <command>` is the help's own word
  });

  it.each(everyCommand.map((command) => [command.name, command] as const))(
    '%s: its usage line names exactly the options it parses',
    (_name, command) => {
      const named = new Set(
        [...command.usage.join(' ').matchAll(/--([a-z][a-z-]*)/g)].map((match) => match[1]),
      );
      expect([...named].sort()).toEqual(Object.keys(command.options).sort());
    },
  );

  it.each(everyCommand.map((command) => [command.name, command] as const))(
    '%s: leaves --help to the help, and explains every option',
    (_name, command) => {
      for (const name of Object.keys(commandHelpOption)) expect(command.options).not.toHaveProperty(name);
      for (const option of Object.values(command.options)) expect(option.description).toMatch(/^[a-z]/);
      expect(command.summary).toMatch(/^[A-Z].*\.$/);
    },
  );
});
