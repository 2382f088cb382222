import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { openDatabase, type Db } from '../library/database';
import { defaultGlossaryIds } from '../../../shared/glossary/glossary';
import { Glossaries } from './glossaries';
import { GlossaryStore } from '../library/glossary-store';
import { glossaryFromCsv } from './glossary-csv';

let db: Db;
let glossaries: Glossaries;
let clock = 1_000;

beforeEach(() => {
  db = openDatabase(':memory:');
  glossaries = new Glossaries(new GlossaryStore(db, () => clock++));
});
afterEach(() => db.close());

const general = async (): Promise<number> => (await glossaries.named('General')).id;
/** Changes are announced once the caller has its answer, on the next turn of the event loop. */
const announced = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('glossaries', () => {
  it('start with General, used by default; names are unique ignoring case', async () => {
    expect(await glossaries.list()).toEqual([
      { id: 1, name: 'General', usedByDefault: true, presets: [], entries: 0 },
    ]);
    const ferry = await glossaries.create('Ferry story');
    await expect(glossaries.create('ferry STORY')).rejects.toThrow(
      'There is already a glossary called “ferry STORY”.',
    );
    await expect(glossaries.rename(ferry.id, 'general')).rejects.toThrow(/already a glossary/);
    await expect(glossaries.create('  ')).rejects.toThrow('A glossary needs a name.');
    await expect(glossaries.named('Council beat')).rejects.toThrow(
      'There is no glossary called “Council beat”. The glossaries are: Ferry story, General.',
    );
    expect((await glossaries.named('council beat', { create: true })).name).toBe('council beat');
  });

  it('apply by default to every transcription or to the presets named', async () => {
    const ferry = await glossaries.create('Ferry story');
    await glossaries.setDefaults(ferry.id, { presets: ['Press conference', ' Press conference '] });
    const list = await glossaries.list();
    expect(list.find((glossary) => glossary.id === ferry.id)?.presets).toEqual(['Press conference']);
    expect(defaultGlossaryIds(list, undefined)).toEqual([1]);
    expect(defaultGlossaryIds(list, 'Press conference')).toEqual([ferry.id, 1]);
    await glossaries.setDefaults(1, { usedByDefault: false });
    expect(defaultGlossaryIds(await glossaries.list(), 'Two-person interview')).toEqual([]);
  });

  it('add an entry again with more misheard forms rather than refusing it', async () => {
    const id = await general();
    const first = await glossaries.add(id, { term: 'Brennan', kind: 'person', misheard: ['Brenan'] });
    expect(first.created).toBe(true);
    const again = await glossaries.add(id, {
      term: 'brennan',
      misheard: ['Brenan', 'brenan', 'Bren Ann', 'Brennan'],
    });
    expect(again).toMatchObject({
      created: false,
      entry: { term: 'Brennan', kind: 'person', misheard: ['Brenan', 'Bren Ann'] },
    });
    // Case beyond ASCII is folded too: "ÁLVAREZ" is the entry "Álvarez".
    await glossaries.add(id, { term: 'Álvarez', kind: 'person' });
    expect(await glossaries.add(id, { term: 'ÁLVAREZ', misheard: ['Alvares'] })).toMatchObject({
      created: false,
      entry: { term: 'Álvarez', misheard: ['Alvares'] },
    });
    expect((await glossaries.removeTerm(id, 'álvarez')).term).toBe('Álvarez');
    await expect(glossaries.add(id, { term: ' ', misheard: [] })).rejects.toThrow(
      'An entry needs its correct spelling.',
    );
    await expect(glossaries.add(id, { term: 'Ortiz', kind: 'mayor' as 'person' })).rejects.toThrow(
      'The kind is one of person, place, organisation or term.',
    );
  });

  it('edit, refuse a spelling the glossary has already, and remove', async () => {
    const id = await general();
    const { entry } = await glossaries.add(id, { term: 'Gull Island', kind: 'place' });
    await glossaries.add(id, { term: 'Ortiz' });
    expect(await glossaries.update(entry.id, { note: 'Ferry stop', misheard: ['Gul Island'] })).toMatchObject(
      {
        term: 'Gull Island',
        kind: 'place',
        misheard: ['Gul Island'],
        note: 'Ferry stop',
      },
    );
    await expect(glossaries.update(entry.id, { term: 'ortiz' })).rejects.toThrow(
      'This glossary already has “Ortiz”.',
    );
    await glossaries.removeTerm(id, 'ortiz');
    await expect(glossaries.removeTerm(id, 'Ortiz')).rejects.toThrow(
      'The glossary “General” has no entry “Ortiz”.',
    );
    expect((await glossaries.entries({ glossaryId: id })).map((e) => e.term)).toEqual(['Gull Island']);
  });

  it('find entries by spelling, misheard form or note, ignoring case and accents', async () => {
    const id = await general();
    await glossaries.add(id, { term: 'Ortíz', kind: 'person', note: 'Harbour master' });
    await glossaries.add(id, { term: 'Brennan', misheard: ['Brenan'] });
    const found = async (query: string): Promise<string[]> =>
      (await glossaries.entries({ query })).map((entry) => entry.term);
    expect(await found('ortiz')).toEqual(['Ortíz']);
    expect(await found('HARBOUR')).toEqual(['Ortíz']);
    expect(await found('brenan')).toEqual(['Brennan']);
    expect(await found('zzz')).toEqual([]);
  });

  it('contribute the chosen glossaries’ entries, the most recently used first', async () => {
    const id = await general();
    const ferry = await glossaries.create('Ferry story');
    const { entry: brennan } = await glossaries.add(id, { term: 'Brennan', misheard: ['Brenan'] });
    await glossaries.add(id, { term: 'Ortiz' });
    await glossaries.add(ferry.id, { term: 'Gull Island' });
    expect((await glossaries.contribution([id])).keyterms).toEqual(['Ortiz', 'Brennan']);
    await glossaries.touch([brennan.id]);
    expect(await glossaries.contribution([id, ferry.id])).toMatchObject({
      keyterms: ['Brennan', 'Gull Island', 'Ortiz'],
      customSpelling: [{ from: ['Brenan'], to: 'Brennan' }],
    });
    await expect(glossaries.contribution([999])).rejects.toThrow('This glossary no longer exists.');
  });

  it('add the default glossaries, the preset’s or the ones named to a new transcription’s options', async () => {
    await glossaries.add(await general(), { term: 'Brennan', misheard: ['Brenan'] });
    const ferry = await glossaries.create('Ferry story');
    await glossaries.add(ferry.id, { term: 'Ortiz' });
    await glossaries.setDefaults(ferry.id, { presets: ['Press conference'] });
    const own = { speaker_labels: true, keyterms_prompt: ['ferry'] };
    expect(await glossaries.optionsFor(own)).toEqual({
      speaker_labels: true,
      keyterms_prompt: ['ferry', 'Brennan'],
      custom_spelling: [{ from: ['Brenan'], to: 'Brennan' }],
    });
    expect((await glossaries.optionsFor(own, { preset: 'Press conference' })).keyterms_prompt).toEqual([
      'ferry',
      'Ortiz',
      'Brennan',
    ]);
    expect(await glossaries.optionsFor(own, { glossaryIds: [] })).toEqual(own);
    expect((await glossaries.optionsFor({}, { glossaryIds: [ferry.id] })).keyterms_prompt).toEqual(['Ortiz']);
    // Options the validator refuses are left for the scheduler to explain.
    const wrong = { speakers_expected: 'two' };
    expect(await glossaries.optionsFor(wrong)).toBe(wrong);
  });

  it('announce every change after the caller has its answer', async () => {
    let heard = 0;
    glossaries.changed.subscribe(() => heard++);
    await glossaries.add(await general(), { term: 'Brennan' });
    expect(heard).toBe(0);
    await announced();
    expect(heard).toBe(1);
  });
});

describe('glossaries as CSV', () => {
  it('round-trip through a file a spreadsheet reads, guarding cells it would run', async () => {
    const id = await general();
    await glossaries.add(id, {
      term: 'Ortíz',
      kind: 'person',
      misheard: ['or tease', 'Ortis'],
      note: 'Mayor, since 2021',
    });
    await glossaries.add(id, { term: '=SUM(A1)', note: 'a "quoted" note\nover two lines' });
    const csv = await glossaries.exportCsv(id);
    expect(csv.startsWith('\uFEFFterm,kind,misheard,note\r\n')).toBe(true);
    // An independent reader sees the guard and the columns.
    const rows: string[][] = parse(csv, { bom: true });
    expect(rows).toEqual([
      ['term', 'kind', 'misheard', 'note'],
      ["'=SUM(A1)", 'term', '', 'a "quoted" note\nover two lines'],
      ['Ortíz', 'person', 'or tease; Ortis', 'Mayor, since 2021'],
    ]);
    const other = await glossaries.create('Copy');
    expect(await glossaries.importCsv(other.id, csv)).toEqual({ added: 2, updated: 0 });
    const copied = await glossaries.entries({ glossaryId: other.id });
    expect(copied.map(({ term, kind, misheard, note }) => ({ term, kind, misheard, note }))).toEqual([
      { term: '=SUM(A1)', kind: 'term', misheard: [], note: 'a "quoted" note\nover two lines' },
      { term: 'Ortíz', kind: 'person', misheard: ['or tease', 'Ortis'], note: 'Mayor, since 2021' },
    ]);
    // Importing again merges rather than doubling.
    expect(await glossaries.importCsv(other.id, csv)).toEqual({ added: 0, updated: 2 });
  });

  it('read a file without a header, an empty kind as a term', () => {
    expect(glossaryFromCsv('Brennan,person,Brenan;Bren Ann\nGull Island,,\n')).toEqual({
      ok: true,
      entries: [
        { term: 'Brennan', kind: 'person', misheard: ['Brenan', 'Bren Ann'], note: '' },
        { term: 'Gull Island', kind: 'term', misheard: [], note: '' },
      ],
    });
  });

  it('import all or nothing, naming every bad row by its line', async () => {
    const id = await general();
    const csv = 'term,kind,misheard,note\nBrennan,person,Brenan,\n,place,,\nGull Island,island,,\n';
    await expect(glossaries.importCsv(id, csv)).rejects.toThrow(
      'Nothing was imported: 2 rows could not be read. line 3: An entry needs its correct spelling; line 4: “island” is not a kind: use person, place, organisation or term.',
    );
    expect(await glossaries.entries({ glossaryId: id })).toEqual([]);
    await expect(glossaries.importCsv(id, 'term\n"unclosed')).rejects.toThrow(/could not be read as CSV/);
  });

  it('import into a glossary by name, made only when the file is imported', async () => {
    const bad = 'term,kind\nOne,person\nTwo,planet\n';
    await expect(glossaries.importCsvNamed('Zed beat', bad)).rejects.toThrow('Nothing was imported');
    await expect(glossaries.importCsvNamed('Zed beat', 'term,kind,misheard,note\n')).rejects.toThrow(
      'Nothing was imported: the file has no entries. A glossary file has the columns term, kind, misheard and note.',
    );
    expect((await glossaries.list()).map((glossary) => glossary.name)).toEqual(['General']);
    const made = await glossaries.importCsvNamed('Zed beat', 'term,kind\nOne,person\n');
    expect(made).toMatchObject({ added: 1, updated: 0, glossary: { name: 'Zed beat', entries: 1 } });
  });

  it('refuse a spelling already there when asked not to merge, naming it, and say where a spelling is', async () => {
    const id = await general();
    await glossaries.add(id, { term: 'Brennan', kind: 'person', misheard: ['Brenan'] });
    await expect(
      glossaries.add(id, { term: 'BRENNAN', misheard: ['Bren Ann'] }, { merge: false }),
    ).rejects.toThrow('General already has “Brennan” (person, misheard as Brenan).');
    const ferry = await glossaries.create('Ferry story');
    await glossaries.add(ferry.id, { term: 'brennan' }, { merge: false });
    expect(
      (await glossaries.sameSpelling('Brennan')).map(({ glossary, entry }) => [glossary.name, entry.term]),
    ).toEqual([
      ['Ferry story', 'brennan'],
      ['General', 'Brennan'],
    ]);
  });

  it('import a file as one moment: its rows equally recent, a row already there merged', async () => {
    const id = await general();
    await glossaries.add(id, { term: 'Álvarez', kind: 'person' });
    const csv =
      'term,kind,misheard,note\nBrennan,person,Brenan,\nálvarez,,Alvares,\nBrennan,,Bren Ann,\nOrtiz,person,,\n';
    expect(await glossaries.importCsv(id, csv)).toEqual({ added: 2, updated: 2 });
    const entries = await glossaries.entries({ glossaryId: id });
    expect(entries.map((entry) => [entry.term, entry.misheard])).toEqual([
      ['Álvarez', ['Alvares']],
      ['Brennan', ['Brenan', 'Bren Ann']],
      ['Ortiz', []],
    ]);
    expect(new Set(entries.map((entry) => entry.usedAt)).size).toBe(1);
  });
});
