import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VerbatimError } from '../../shared/errors';
import type { Glossary, GlossaryEntry } from '../../shared/glossary/glossary';
import type { TranscriptSummary } from '../../shared/library';
import { startIpcTestbed, type IpcTestbed } from './ipc-testbed.test-kit';
import { completedTranscriptFromLines, misheardTimings } from '../core/library/completed-transcript.test-kit';
import type { GlossaryContribution } from '../../shared/glossary/glossary-request';
import type { TranscriptFixProposals } from '../core/glossary/glossary-fix-proposals';
import { fixesIntent } from '../../shared/glossary/glossary-fixes';
import type { FileDialogs } from '../core/export/export-platform';
import { Glossaries } from '../core/glossary/glossaries';
import { openDatabase } from '../core/library/database';
import { Library } from '../core/library/library';
import { GlossaryStore } from '../core/library/glossary-store';
import { createGlossaryHandlers } from './glossary-handlers';

let bed: IpcTestbed;
const folder = mkdtempSync(join(tmpdir(), 'verbatim-glossary-'));

beforeAll(async () => {
  bed = await startIpcTestbed(200);
});
afterAll(async () => bed.close());

/** Changes are announced once the caller has its answer, on the next turn of the event loop. */
const announced = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the glossary handlers', () => {
  it('keep entries, announce each change, and refuse a bad one in plain words', async () => {
    const [general] = await bed.call<Glossary[]>('glossaries.list');
    expect(general).toMatchObject({ name: 'General', usedByDefault: true });
    bed.events.length = 0;
    await bed.call('glossaries.addEntry', {
      glossaryId: general!.id,
      entry: { term: 'Brennan', kind: 'person', misheard: ['Brenan'] },
    });
    await announced();
    expect(bed.events.map((e) => e.event)).toContain('glossaries.changed');
    await expect(
      bed.call('glossaries.addEntry', { glossaryId: general!.id, entry: { term: 'Ortiz', kind: 'mayor' } }),
    ).rejects.toThrow(/kind/);
  });

  it('import a CSV file all or nothing, and export one atomically without replacing unasked', async () => {
    const ferry = await bed.call<Glossary>('glossaries.create', { name: 'Ferry story' });
    const source = join(folder, 'ferry.csv');
    writeFileSync(
      source,
      'term,kind,misheard,note\nGull Island,place,Gul Island,\nOrtíz,person,Ortis,Harbour master\n',
    );
    expect(await bed.call('glossaries.importCsv', { glossaryId: ferry.id, path: source })).toEqual({
      added: 2,
      updated: 0,
    });
    await expect(
      bed.call('glossaries.importCsv', { glossaryId: ferry.id, path: 'ferry.csv' }),
    ).rejects.toThrow('Give the full path, starting from the top of the disk, not "ferry.csv".');
    await expect(
      bed.call('glossaries.importCsv', { glossaryId: ferry.id, path: join(folder, 'missing.csv') }),
    ).rejects.toThrow(`There is no file ${join(folder, 'missing.csv')}.`);

    const target = join(folder, 'out.csv');
    expect(await bed.call('glossaries.exportCsv', { glossaryId: ferry.id, path: target })).toEqual({
      path: target,
      entries: 2,
    });
    expect(readFileSync(target, 'utf8')).toContain('Ortíz,person,Ortis,Harbour master');
    const refused = await bed
      .call('glossaries.exportCsv', { glossaryId: ferry.id, path: target })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(VerbatimError);
    expect((refused as VerbatimError).code).toBe('conflict');
    await bed.call('glossaries.exportCsv', { glossaryId: ferry.id, path: target, replace: true });
  });

  it('say what glossaries contribute, and send the default ones or those chosen with a new transcription', async () => {
    const glossaries = await bed.call<Glossary[]>('glossaries.list');
    const ferry = glossaries.find((glossary) => glossary.name === 'Ferry story')!;
    const general = glossaries.find((glossary) => glossary.name === 'General')!;
    // (Both were imported in the same moment: their order is the clock's, so it is not asserted.)
    const contribution = await bed.call<GlossaryContribution>('glossaries.contribution', {
      glossaryIds: [ferry.id],
      options: { speech_models: ['universal-2'] },
    });
    expect(contribution.keyterms.toSorted()).toEqual(['Gull Island', 'Ortíz']);
    expect(contribution).toMatchObject({
      customSpelling: [{ from: ['Ortis'], to: 'Ortíz' }],
      notExpressible: [{ term: 'Gull Island' }],
    });
    const recording = join(process.cwd(), 'test', 'fixtures', 'interview-ferry-contract.wav');
    const sent = async (request: object): Promise<Record<string, unknown>> => {
      const summary = await bed.call<TranscriptSummary>('transcripts.create', {
        source: { kind: 'file', path: recording },
        options: { speaker_labels: true },
        ...request,
      });
      return (await bed.services.core.library.requireJob(summary.id)).options;
    };
    expect(await sent({})).toMatchObject({
      keyterms_prompt: ['Brennan'],
      custom_spelling: [{ from: ['Brenan'], to: 'Brennan' }],
    });
    // The ferry story's, newer, before General's.
    const both = (await sent({ glossaryIds: [ferry.id, general.id] })).keyterms_prompt as string[];
    expect([...both.slice(0, 2).toSorted(), both[2]]).toEqual(['Gull Island', 'Ortíz', 'Brennan']);
    expect(await sent({ glossaryIds: [] })).toEqual({ speaker_labels: true });
    // An entry just applied to a transcript becomes the most recently used: it goes first.
    const [ortiz] = await bed.call<GlossaryEntry[]>('glossaries.entries', { query: 'ortíz' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await bed.call('glossaries.markUsed', { entryIds: [ortiz!.id] })).toEqual({});
    const ordered = await bed.call<GlossaryContribution>('glossaries.contribution', {
      glossaryIds: [ferry.id, general.id],
      options: {},
    });
    expect(ordered.keyterms[0]).toBe('Ortíz');
    const entries = await bed.call<GlossaryEntry[]>('glossaries.entries', { query: 'harbour' });
    expect(entries.map((entry) => entry.term)).toEqual(['Ortíz']);
  });

  it('propose the glossary’s fixes in a finished transcript, applied as one correction that undo takes back', async () => {
    const { library } = bed.services.core;
    await library.createJob({
      id: 'old-interview',
      title: 'Old interview',
      sourceKind: 'file',
      source: '/rec/old.wav',
      audioPath: null,
      region: 'us',
      options: {},
      status: 'fetching',
    });
    await library.saveCompleted(
      'old-interview',
      completedTranscriptFromLines(
        [
          ['A', 'Mayor Brenan opened the meeting.', 0],
          ['B', 'Brenan is wrong, says Ortis.', 3000],
        ],
        misheardTimings,
        { transcript: { id: 'remote-old-interview' } },
      ),
    );
    const [proposals] = await bed.call<TranscriptFixProposals[]>('glossaries.proposeFixes', {
      transcriptIds: ['old-interview'],
    });
    expect(proposals!.title).toBe('Old interview');
    expect(proposals!.fixes.map((fix) => `${fix.match}→${fix.replacement}`)).toEqual([
      'Brenan→Brennan',
      'Brenan→Brennan',
      'Ortis→Ortíz',
    ]);
    const accepted = proposals!.fixes.filter((fix) => fix.position === 1);
    await bed.call('corrections.edit', { id: 'old-interview', intent: fixesIntent(accepted) });
    const text = async (): Promise<string[]> => (await library.sentences('old-interview')).map((s) => s.text);
    expect(await text()).toEqual(['Mayor Brenan opened the meeting.', 'Brennan is wrong, says Ortíz.']);
    await bed.call('corrections.undo', { id: 'old-interview' });
    expect(await text()).toEqual(['Mayor Brenan opened the meeting.', 'Brenan is wrong, says Ortis.']);
  });
});

describe('choosing a glossary file', () => {
  it('opens the OS dialog for a CSV to import, a save dialog named after the glossary to export', async () => {
    const asked: { kind: string; title: string; defaultPath: string; extensions: string[] }[] = [];
    const dialogs: FileDialogs = {
      openFile: ({ title, defaultPath, filters }) => (
        asked.push({ kind: 'open', title, defaultPath, extensions: filters.flatMap((f) => f.extensions) }),
        Promise.resolve('/home/reporter/council.csv')
      ),
      saveFile: ({ title, defaultPath, filters }) => (
        asked.push({ kind: 'save', title, defaultPath, extensions: filters.flatMap((f) => f.extensions) }),
        Promise.resolve(null)
      ),
      chooseFolder: () => Promise.reject(new Error('a glossary never asks for a folder')),
    };
    const db = openDatabase(':memory:');
    const glossaries = new Glossaries(new GlossaryStore(db));
    const ferry = await glossaries.create('Ferry: story');
    const handlers = createGlossaryHandlers({
      glossaries,
      library: new Library(db),
      exportPlatform: { dialogs, defaultFolder: '/home/reporter/Documents' },
    });
    expect(await handlers['glossaries.chooseFile']({ purpose: 'import', glossaryId: ferry.id })).toEqual({
      path: '/home/reporter/council.csv',
    });
    expect(await handlers['glossaries.chooseFile']({ purpose: 'export', glossaryId: ferry.id })).toEqual({
      path: null,
    });
    expect(asked).toEqual([
      {
        kind: 'open',
        title: 'Import a glossary',
        defaultPath: '/home/reporter/Documents',
        extensions: ['csv'],
      },
      {
        kind: 'save',
        title: 'Export the glossary',
        defaultPath: join('/home/reporter/Documents', 'Ferry- story.csv'),
        extensions: ['csv'],
      },
    ]);
    // The web host has no dialogs: the page is told to ask for a path.
    await expect(bed.call('glossaries.chooseFile', { purpose: 'import', glossaryId: 1 })).rejects.toThrow(
      'This window has no file dialog: type the file’s path instead.',
    );
    db.close();
  });
});
