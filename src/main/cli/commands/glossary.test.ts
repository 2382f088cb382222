import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { runCliProcess } from '../cli-process.test-kit';

const speed = 200;
const interview = resolve(import.meta.dirname, '../../../../test/fixtures/interview-ferry-contract.wav');
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
});
afterAll(() => emulator.close());

function cliIn(dataDir: string) {
  return (args: string[]) =>
    runCliProcess(args, {
      VERBATIM_DATA_DIR: dataDir,
      VERBATIM_API_KEY: emulator.options.key,
      VERBATIM_TRANSCRIPTION_URL: emulator.url,
      VERBATIM_TIME_SCALE: String(speed),
    });
}

/** A transcript's text as `show --json` prints it, one string, and what `transcribe` said on stderr. */
async function transcribed(cli: ReturnType<typeof cliIn>, extra: string[]) {
  const made = await cli(['transcribe', interview, '--wait', '--json', ...extra]);
  expect(made.code, made.stderr).toBe(0);
  const [job] = JSON.parse(made.stdout) as { id: string }[];
  const shown = await cli(['show', job!.id, '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  const text = (JSON.parse(shown.stdout) as { sentences: { text: string }[] }).sentences
    .map((s) => s.text)
    .join(' ');
  return { text, notes: made.stderr };
}

describe('glossary from the command line', () => {
  it('adds, lists, removes, and a new transcription spells the names as the glossaries say', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-glossary-'));
    const cli = cliIn(dataDir);

    const added = await cli(['glossary', 'add', 'Álvarez', '--kind', 'person', '--note', 'the mayor']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe('Added in General:\n  Álvarez  [person]  (the mayor)\n');
    const island = await cli([
      'glossary',
      'add',
      'Gall',
      '--misheard',
      'Gull',
      '--misheard',
      'Gul',
      '--glossary',
      'Ferry story',
      '--json',
    ]);
    expect(island.code, island.stderr).toBe(0);
    expect(JSON.parse(island.stdout)).toMatchObject({
      glossary: 'Ferry story',
      created: true,
      entry: { term: 'Gall', kind: 'term', misheard: ['Gull', 'Gul'] },
    });

    const listed = await cli(['glossary', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe(
      [
        'Ferry story (1 entry)',
        '  Gall  [term]  misheard: Gull, Gul',
        '',
        'General (1 entry, used by default)',
        '  Álvarez  [person]  (the mayor)',
        '',
      ].join('\n'),
    );

    // Without --glossary the defaults apply: General's key term, not the Ferry story's spelling.
    const byDefault = await transcribed(cli, []);
    expect(byDefault.text).toContain('Mayor Elena Álvarez');
    expect(byDefault.text).toContain('Gull Island');
    expect(byDefault.notes).toContain(
      'verbatim: Glossary: 1 key term and 0 spellings sent with the recording.',
    );
    // Named, only those apply: the spelling rewrites the misheard word, the key term is not sent.
    const chosen = await transcribed(cli, ['--glossary', 'ferry STORY']);
    expect(chosen.text).toContain('Gall Island');
    expect(chosen.text).toContain('Mayor Elena Alvarez');
    const both = await transcribed(cli, ['--glossary', 'General', '--glossary', 'Ferry story']);
    expect(both.text).toContain('Gall Island');
    expect(both.text).toContain('Álvarez');

    // A spelling the service cannot write (more than one word) is said, not dropped silently.
    await cli([
      'glossary',
      'add',
      'North Wind Ferries',
      '--misheard',
      'Northwind Ferries',
      '--glossary',
      'Ferry story',
    ]);
    const told = await transcribed(cli, ['--glossary', 'Ferry story']);
    expect(told.notes).toContain('verbatim: Glossary: 2 key terms and 1 spelling sent with the recording.');
    expect(told.notes).toContain(
      'verbatim: Glossary: “North Wind Ferries” not sent as written: Custom spelling can only write a single word',
    );

    const removed = await cli(['glossary', 'remove', 'álvarez']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toBe('Removed “Álvarez” from General.\n');
    expect((await cli(['glossary', 'list', '--glossary', 'General'])).stdout).toContain(
      'General (0 entries, used by default)',
    );
  });

  it('imports a CSV into a new glossary and exports it again; a bad row imports nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-glossary-csv-'));
    const cli = cliIn(dataDir);
    const file = join(dataDir, 'council.csv');
    writeFileSync(
      file,
      'term,kind,misheard,note\nSiobhán Brennan,person,Brenan; Bren Ann,councillor\nHarbourside Renewal,term,,the project\n',
    );
    const imported = await cli(['glossary', 'import', file, '--glossary', 'Council beat']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe('Imported into Council beat: 2 added, 0 updated.\n');

    const out = join(dataDir, 'out.csv');
    const exported = await cli(['glossary', 'export', out, '--glossary', 'Council beat']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toBe(`Wrote 2 entries of Council beat to ${out}\n`);
    const written = readFileSync(out, 'utf8');
    expect(written).toContain('Siobhán Brennan,person,Brenan; Bren Ann,councillor');
    expect(written).toContain('Harbourside Renewal,term,,the project');

    // The file is there now: a script never replaces it without --force.
    const again = await cli(['glossary', 'export', out, '--glossary', 'Council beat']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already|exists/i);
    expect((await cli(['glossary', 'export', out, '--glossary', 'Council beat', '--force'])).code).toBe(0);

    const bad = join(dataDir, 'bad.csv');
    writeFileSync(bad, 'term,kind\nOne,person\nTwo,planet\n');
    const refused = await cli(['glossary', 'import', bad, '--glossary', 'Council beat']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Nothing was imported');
    expect(refused.stderr).toContain('line 3');
    const listed = JSON.parse(
      (await cli(['glossary', 'list', '--glossary', 'Council beat', '--json'])).stdout,
    ) as {
      entries: { term: string }[];
    }[];
    expect(listed[0]!.entries.map((entry) => entry.term)).toEqual(['Harbourside Renewal', 'Siobhán Brennan']);
  });

  it('says plainly what is wrong with a command', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-glossary-bad-'));
    const cli = cliIn(dataDir);
    const kind = await cli(['glossary', 'add', 'Brennan', '--kind', 'planet']);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain('"planet" is not a kind: give person, place, organisation or term');
    const missing = await cli(['glossary', 'list', '--glossary', 'Sports desk']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'There is no glossary called “Sports desk”. The glossaries are: General.',
    );
    const noTerm = await cli(['glossary', 'remove', 'Nobody']);
    expect(noTerm.code).toBe(2);
    expect(noTerm.stderr).toContain('The glossary “General” has no entry “Nobody”.');
    const unknown = await cli(['transcribe', interview, '--glossary', 'Sports desk']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no glossary called “Sports desk”');
    const noFile = await cli(['glossary', 'import', join(dataDir, 'none.csv')]);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('There is no file');
    const help = await cli(['glossary', '--help']);
    expect(help.stdout).toContain('--misheard FORM (repeatable)');
  });
});
