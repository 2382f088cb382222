import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import type { NewGlossaryEntry } from '../../../shared/glossary/glossary';
import { Glossaries } from '../../core/glossary/glossaries';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import { GlossaryStore } from '../../core/library/glossary-store';
import { runCliProcess } from '../cli-process.test-kit';

/**
 * The glossary from the command line, each run a real child process with its output piped. A
 * test runs only the commands it is about (a child process costs seconds on a loaded machine);
 * what it needs beforehand is stored through the core, as the app would have stored it.
 */
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

/** A new data folder whose glossaries hold these entries, stored as the app stores them. */
async function folderWith(glossaries: Record<string, NewGlossaryEntry[]>): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-glossary-'));
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  const store = new Glossaries(new GlossaryStore(db));
  for (const [name, entries] of Object.entries(glossaries)) {
    const glossary = await store.named(name, { create: true });
    for (const entry of entries) await store.add(glossary.id, entry);
  }
  db.close();
  return dataDir;
}

/** What the library holds, read as the app reads it. */
async function inLibrary<T>(dataDir: string, read: (library: Library, glossaries: Glossaries) => Promise<T>) {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  try {
    return await read(new Library(db), new Glossaries(new GlossaryStore(db)));
  } finally {
    db.close();
  }
}

/** Transcribes the interview with these words, and gives its text as stored and what was said on stderr. */
async function transcribed(dataDir: string, extra: string[]) {
  const made = await cliIn(dataDir)(['transcribe', interview, '--wait', '--json', ...extra]);
  expect(made.code, made.stderr).toBe(0);
  const [job] = JSON.parse(made.stdout) as { id: string }[];
  const sentences = await inLibrary(dataDir, (library) => library.sentences(job!.id));
  return { text: sentences.map((s) => s.text).join(' '), notes: made.stderr };
}

/** The transcription requests the service received since the last call. */
async function sentToService(): Promise<Record<string, unknown>[]> {
  const log = (await (await fetch(`${emulator.url}/__admin/requests`)).json()) as {
    requests: { method: string; path: string; body?: Record<string, unknown> }[];
  };
  await fetch(`${emulator.url}/__admin/requests`, { method: 'DELETE' });
  return log.requests
    .filter((request) => request.method === 'POST' && request.path === '/v2/transcript')
    .map((request) => request.body ?? {});
}

describe('glossary from the command line', () => {
  it('adds, lists and removes entries', async () => {
    const dataDir = await folderWith({});
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

    const removed = await cli(['glossary', 'remove', 'álvarez']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toBe('Removed “Álvarez” from General.\n');
    expect(await inLibrary(dataDir, (_, glossaries) => glossaries.entries())).toEqual([
      expect.objectContaining({ term: 'Gall' }),
    ]);
  });

  it('says what a glossary has already and where, and adds to it only when told to --merge', async () => {
    const dataDir = await folderWith({
      General: [{ term: 'Brennan', kind: 'person', misheard: ['Brenan'] }],
      'Council beat': [{ term: 'Ortiz', kind: 'person' }],
    });
    const cli = cliIn(dataDir);
    const again = await cli(['glossary', 'add', 'brennan', '--misheard', 'Bren Ann']);
    expect(again.code).toBe(2);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe(
      'verbatim: General already has “Brennan” (person, misheard as Brenan). Nothing was added: to add the misheard forms, kind and note to it, run the command again with --merge.\n',
    );
    const merged = await cli(['glossary', 'add', 'brennan', '--misheard', 'Bren Ann', '--merge']);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toBe('Updated in General:\n  Brennan  [person]  misheard: Brenan, Bren Ann\n');

    // Another glossary may have it too: added, and said where else it is.
    const elsewhere = await cli(['glossary', 'add', 'ORTIZ', '--kind', 'person', '--json']);
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(JSON.parse(elsewhere.stdout)).toMatchObject({
      glossary: 'General',
      created: true,
      alsoIn: ['Council beat'],
      notes: ['“ORTIZ” is also in Council beat.'],
    });
  });

  it('says when a misheard form is part of the spelling itself, which is never sent as a custom spelling', async () => {
    const dataDir = await folderWith({});
    const added = await cliIn(dataDir)([
      'glossary',
      'add',
      'Northwind Ferries',
      '--misheard',
      'Northwind',
      '--kind',
      'organisation',
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe(
      [
        'Added in General:',
        '  Northwind Ferries  [organisation]  misheard: Northwind',
        '“Northwind” is part of “Northwind Ferries” itself: as a custom spelling it would have the service write the name twice wherever the recording says it right, so it is never sent. Apply glossary still fixes it where it stands alone.',
        '',
      ].join('\n'),
    );
  });

  it('a new transcription spells the names as the glossaries chosen say', async () => {
    const dataDir = await folderWith({
      General: [{ term: 'Álvarez', kind: 'person' }],
      'Ferry story': [{ term: 'Gall', misheard: ['Gull', 'Gul'] }],
    });
    // Without --glossary the defaults apply: General's key term, not the Ferry story's spelling.
    const byDefault = await transcribed(dataDir, []);
    expect(byDefault.text).toContain('Mayor Elena Álvarez');
    expect(byDefault.text).toContain('Gull Island');
    expect(byDefault.notes).toContain(
      'verbatim: Glossary: 1 key term and 0 spellings sent with the recording.',
    );
    // Named, only those apply: the spelling rewrites the misheard word, the key term is not sent.
    const chosen = await transcribed(dataDir, ['--glossary', 'ferry STORY']);
    expect(chosen.text).toContain('Gall Island');
    expect(chosen.text).toContain('Mayor Elena Alvarez');
    const both = await transcribed(dataDir, ['--glossary', 'General', '--glossary', 'Ferry story']);
    expect(both.text).toContain('Gall Island');
    expect(both.text).toContain('Álvarez');
  });

  it('says nothing was sent with a recording that never became a job (issue #32)', async () => {
    const dataDir = await folderWith({ General: [{ term: 'Álvarez', kind: 'person' }] });
    const refused = await cliIn(dataDir)(['transcribe', join(dataDir, 'no-such-recording.wav')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'verbatim: "no-such-recording.wav" was not found. It may have been moved or deleted.\n',
    );
  });

  it('sends no form that is part of its spelling, and says what it cannot send once per transcription', async () => {
    const dataDir = await folderWith({
      General: [
        { term: 'Northwind Ferries', kind: 'organisation', misheard: ['Northwind'] },
        { term: 'Al-Hassan', kind: 'person', misheard: ['Hassan', 'Al Hasan'] },
        { term: 'The Greater Harbour Area Ferry Passenger Association', misheard: ['Harbour Association'] },
      ],
      'Ferry story': [{ term: 'Northwind Ferries', kind: 'organisation', misheard: ['North Wind'] }],
    });
    await sentToService();
    const told = await transcribed(dataDir, ['--glossary', 'General', '--glossary', 'Ferry story']);
    // The recording says "Northwind Ferries" and, later, "Northwind": neither is doubled.
    expect(told.text).toContain('The council awarded Northwind Ferries a deal');
    expect(told.text).toContain('Well, Northwind offered the best price');
    const [request] = await sentToService();
    expect((request!.keyterms_prompt as string[]).toSorted()).toEqual(['Al-Hassan', 'Northwind Ferries']);
    expect(request!.custom_spelling).toEqual([{ from: ['Al Hasan'], to: 'Al-Hassan' }]);

    // Each spelling once, however many glossaries have it and whatever the reasons.
    const notes = told.notes.split('\n').filter((line) => line.startsWith('verbatim: Glossary:'));
    expect(notes.toSorted()).toEqual([
      'verbatim: Glossary: 2 key terms and 1 spelling sent with the recording.',
      'verbatim: Glossary: “Al-Hassan” not sent as written: “Hassan” is part of “Al-Hassan” itself: as a custom spelling it would have the service write the name twice wherever the recording says it right, so it is never sent. Apply glossary still fixes it where it stands alone. Its spelling is still sent as a key term.',
      'verbatim: Glossary: “Northwind Ferries” not sent as written: “Northwind” is part of “Northwind Ferries” itself: as a custom spelling it would have the service write the name twice wherever the recording says it right, so it is never sent. Apply glossary still fixes it where it stands alone. Custom spelling can only write a single word, and “Northwind Ferries” is 2 words: its misheard forms (North Wind) are not replaced. Its spelling is still sent as a key term.',
      'verbatim: Glossary: “The Greater Harbour Area Ferry Passenger Association” not sent as written: A key term has at most 6 words; this one has 7. Custom spelling can only write a single word, and “The Greater Harbour Area Ferry Passenger Association” is 7 words: its misheard forms (Harbour Association) are not replaced.',
    ]);
  });

  it('a glossary of 19,000 entries is said in a few short lines: how many were left out, and a few names', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-glossary-big-'));
    const db = openDatabase(join(dataDir, 'library.sqlite'));
    const rows = Array.from(
      { length: 19_000 },
      (_, index) => `Councillor Name${index},person,Misheard Name${index},`,
    );
    await new Glossaries(new GlossaryStore(db)).importCsvNamed(
      'Everyone',
      `term,kind,misheard,note\n${rows.join('\n')}\n`,
    );
    db.close();
    const told = await transcribed(dataDir, ['--glossary', 'Everyone']);
    const notes = told.notes.split('\n').filter((line) => line.startsWith('verbatim: Glossary:'));
    expect(notes.length).toBeLessThanOrEqual(13);
    for (const line of notes) expect(line.length).toBeLessThan(1000);
    expect(notes.find((line) => line.includes('left out'))).toMatch(
      /^verbatim: Glossary: the model takes no more key terms; \d+ left out \(the least recently used\): Councillor Name\d+, Councillor Name\d+, Councillor Name\d+, Councillor Name\d+, Councillor Name\d+ and [\d,]+ more\.$/,
    );
  }, 120_000);

  it('imports a CSV into a new glossary and exports it again; a bad row imports nothing', async () => {
    const dataDir = await folderWith({});
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
  });

  it('a file that imports nothing changes nothing, not even the glossary it names', async () => {
    const dataDir = await folderWith({ 'Council beat': [{ term: 'Harbourside Renewal' }] });
    const cli = cliIn(dataDir);
    const bad = join(dataDir, 'bad.csv');
    writeFileSync(bad, 'term,kind\nOne,person\nTwo,planet\n');
    const refused = await cli(['glossary', 'import', bad, '--glossary', 'Council beat']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Nothing was imported');
    expect(refused.stderr).toContain('line 3');
    const intoNew = await cli(['glossary', 'import', bad, '--glossary', 'Zed beat']);
    expect(intoNew.code).toBe(2);
    expect(intoNew.stderr).toContain('Nothing was imported');
    const empty = join(dataDir, 'empty.csv');
    writeFileSync(empty, 'term,kind,misheard,note\n');
    const nothing = await cli(['glossary', 'import', empty, '--glossary', 'Zed beat']);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toBe(
      'verbatim: Nothing was imported: the file has no entries. A glossary file has the columns term, kind, misheard and note.\n',
    );
    const after = await inLibrary(dataDir, async (_, glossaries) => ({
      names: (await glossaries.list()).map((glossary) => glossary.name),
      terms: (await glossaries.entries()).map((entry) => entry.term),
    }));
    expect(after).toEqual({ names: ['Council beat', 'General'], terms: ['Harbourside Renewal'] });
  });

  it('says plainly what is wrong with a command', async () => {
    const dataDir = await folderWith({});
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
  });

  it('says plainly what is wrong with a file or a glossary named, and shows its help', async () => {
    const dataDir = await folderWith({});
    const cli = cliIn(dataDir);
    const unknown = await cli(['transcribe', interview, '--glossary', 'Sports desk']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no glossary called “Sports desk”');
    const noFile = await cli(['glossary', 'import', join(dataDir, 'none.csv')]);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('There is no file');
    const help = await cli(['glossary', '--help']);
    expect(help.stdout).toContain('--misheard FORM (repeatable)');
    expect(help.stdout).toContain('--merge');
  });
});
