import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VerbatimError } from '../../shared/errors';
import type { Glossary, GlossaryEntry } from '../../shared/glossary/glossary';
import type { TranscriptSummary } from '../../shared/library';
import { startIpcTestbed, type IpcTestbed } from './ipc-testbed.test-kit';

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
    expect(
      await bed.call('glossaries.contribution', {
        glossaryIds: [ferry.id],
        options: { speech_models: ['universal-2'] },
      }),
    ).toMatchObject({
      keyterms: ['Gull Island', 'Ortíz'],
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
    expect((await sent({ glossaryIds: [ferry.id, general.id] })).keyterms_prompt).toEqual([
      'Gull Island',
      'Ortíz',
      'Brennan',
    ]);
    expect(await sent({ glossaryIds: [] })).toEqual({ speaker_labels: true });
    const entries = await bed.call<GlossaryEntry[]>('glossaries.entries', { query: 'harbour' });
    expect(entries.map((entry) => entry.term)).toEqual(['Ortíz']);
  });
});
