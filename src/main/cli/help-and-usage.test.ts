import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEveryCommand } from './command-table';
import { commandHelp, overallHelp, usageOf } from './help';
import { runCli } from './run-cli';

const everyCommand = await loadEveryCommand();

const env = { VERBATIM_DATA_DIR: mkdtempSync(join(tmpdir(), 'verbatim-cli-help-')) };
const exportCommand = everyCommand.find((command) => command.name === 'export')!;

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t), isTty: false, env });
  return { code, out: out.join('\n'), err: err.join('') };
}

describe('help on the command line', () => {
  it('help and --help print the overall help and succeed; no command at all prints it and exits 2', async () => {
    expect(await cli(['--help'])).toEqual({ code: 0, out: overallHelp(everyCommand), err: '' });
    expect(await cli(['help'])).toEqual({ code: 0, out: overallHelp(everyCommand), err: '' });
    expect(await cli([])).toEqual({ code: 2, out: overallHelp(everyCommand), err: '' });
  });

  it("a command's help, asked for after its name, before it, or through help", async () => {
    const asked = { code: 0, out: commandHelp(exportCommand), err: '' };
    expect(await cli(['export', '--help'])).toEqual(asked);
    expect(await cli(['export', 'ferry', '--format', 'txt', '--help'])).toEqual(asked);
    expect(await cli(['--help', 'export'])).toEqual(asked);
    expect(await cli(['help', 'export'])).toEqual(asked);
  });
});

describe('usage mistakes', () => {
  it("an option the command does not take: said, with that command's usage, exit 2", async () => {
    expect(await cli(['jobs', '--wait'])).toEqual({
      code: 2,
      out: '',
      err: 'verbatim: unknown option --wait for jobs\n\nUsage: npm run cli -- jobs [--json]\n',
    });
  });

  it("a command's own check of its words ends the same way", async () => {
    expect(await cli(['export'])).toEqual({
      code: 2,
      out: '',
      err: `verbatim: export needs one transcript id\n\n${usageOf(exportCommand)}\n`,
    });
  });

  it('an unknown command or option before one: said, with the overall help', async () => {
    for (const [args, problem] of [
      [['fly'], 'unknown command "fly"'],
      [['help', 'fly'], 'unknown command "fly"'],
      [['--frobnicate', 'jobs'], 'unknown option --frobnicate'],
    ] as const) {
      expect(await cli([...args])).toEqual({
        code: 2,
        out: '',
        err: `verbatim: ${problem}\n\n${overallHelp(everyCommand)}\n`,
      });
    }
  });
});
