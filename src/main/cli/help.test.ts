import { describe, expect, it } from 'vitest';
import { exportFormats } from '../../shared/export-options';
import type { CliCommand } from './command';
import { loadEveryCommand } from './command-table';
import { commandHelp, overallHelp, usageOf } from './help';

const everyCommand = await loadEveryCommand();

const sample: CliCommand = {
  name: 'sample',
  usage: ['<id> --out PATH [--long-option-name]\n[--json]', 'other <word>'],
  summary: 'Does the sample thing.',
  options: {
    out: { type: 'string', valueName: 'PATH', description: 'where it goes' },
    'long-option-name': { type: 'boolean', description: 'a flag with a long name' },
    json: { type: 'boolean', description: 'prints JSON' },
  },
  takesWords: true,
  run: () => Promise.resolve(0),
};

describe('the help, written from the command table', () => {
  it("a command's usage: its forms after the invocation, a broken form's later lines indented", () => {
    expect(usageOf(sample)).toBe(
      [
        'Usage: npm run cli -- sample <id> --out PATH [--long-option-name]',
        '         [--json]',
        '       npm run cli -- sample other <word>',
      ].join('\n'),
    );
  });

  it("keeps export's usage as the command line has always shown it", () => {
    const exportCommand = everyCommand.find((command) => command.name === 'export')!;
    expect(usageOf(exportCommand)).toBe(
      `Usage: npm run cli -- export <id> --format ${exportFormats.join('|')} --out PATH [--unit sentences|paragraphs|turns]
         [--timestamps none|paragraph|sentence|every:N] [--no-speakers] [--no-header] [--appendix]
         [--unredacted] [--range START-END (hh:mm:ss, mm:ss or seconds; whole sentences)] [--force] [--json]`,
    );
  });

  it("a command's help: usage, what it does, and each option lined up with what it does", () => {
    expect(commandHelp(sample)).toBe(
      [
        usageOf(sample),
        '',
        'Does the sample thing.',
        '',
        'Options:',
        '  --out PATH          where it goes',
        '  --long-option-name  a flag with a long name',
        '  --json              prints JSON',
        '  --help              shows this help',
      ].join('\n'),
    );
  });

  it('the overall help: every form and summary, the options before a command, the environment', () => {
    const help = overallHelp([sample]);
    expect(help).toContain(
      [
        '  sample <id> --out PATH [--long-option-name]',
        '         [--json]',
        '  sample other <word>',
        '    Does the sample thing.',
      ].join('\n'),
    );
    expect(help).toMatch(/^Usage: npm run cli -- <command> \[options\]\n/);
    expect(help).toContain('Options before the command:\n  --help  ');
    expect(help).toMatch(
      /\nEnvironment: VERBATIM_DATA_DIR, [^]*VERBATIM_VOICE_URL \(the voice agent\),\nVERBATIM_NEWSROOM_URL [^]*VERBATIM_NEWSROOM_PASSWORD \(the newsroom commands\)$/,
    );
  });

  it("newsroom's help lists adding and removing desk members and publishing, with their options", () => {
    const newsroom = everyCommand.find((command) => command.name === 'newsroom')!;
    const help = commandHelp(newsroom);
    expect(help).toContain(' npm run cli -- newsroom add-member <user> --desk NAME [--editor] [--json]\n');
    expect(help).toContain(' npm run cli -- newsroom remove-member <user> --desk NAME [--json]\n');
    expect(help).toContain(
      ' npm run cli -- newsroom publish <id>... [--desk NAME] [--confidential] [--with-audio] [--json]\n',
    );
    expect(help).toContain(' npm run cli -- newsroom unpublish <id> [--json]\n');
    expect(help).toContain(' npm run cli -- newsroom outbox [--send] [--json]\n');
    expect(help).toMatch(
      /\n {2}--desk NAME +the desk to add the user to or remove them from, to publish to \(publish: your only desk unless given\), or to search in\n/,
    );
    expect(help).toMatch(/\n {2}--editor +makes the user the desk's editor \(a reporter unless given\)\n/);
  });

  it("newsroom's help lists searching the archive and opening a transcript of it, with their options", () => {
    const newsroom = everyCommand.find((command) => command.name === 'newsroom')!;
    const help = commandHelp(newsroom);
    expect(help).toContain(
      ' npm run cli -- newsroom search <query> [--desk NAME] [--reporter USER] [--speaker S] [--tag T] [--from DATE] [--to DATE] [--json]\n',
    );
    expect(help).toContain(' npm run cli -- newsroom open <reporter>/<transcript-id> [--json]\n');
    expect(help).toMatch(/\n {2}--reporter USER +search only what this reporter published\n/);
    expect(help).toMatch(
      /\n {2}--from DATE +search only recordings made on or after this day \(YYYY-MM-DD\)\n/,
    );
  });

  it('the overall help lists every command of the table', () => {
    const help = overallHelp(everyCommand);
    for (const command of everyCommand) {
      expect(help).toContain(`\n  ${command.name} ${command.usage[0]!.split('\n')[0]}`);
      expect(help).toContain(`\n    ${command.summary}\n`);
    }
  });
});
