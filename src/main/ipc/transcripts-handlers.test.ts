import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { join, resolve } from 'node:path';
import type { SearchPage, TranscriptSummary } from '../../shared/library';
import type { TranscriptDetail, TranscriptOpening } from '../../shared/ipc/contract';
import { startIpcTestbed, type IpcTestbed } from './ipc-testbed.test-kit';
import { openDatabase } from '../core/library/database';
import { Library } from '../core/library/library';
import { TranscriptContent } from '../core/library/transcript-content';

const interview = resolve(import.meta.dirname, '../../../test/fixtures/interview-ferry-contract.wav');
let testbed: IpcTestbed;

beforeAll(async () => {
  testbed = await startIpcTestbed(300);
});
afterAll(() => testbed.close());

const call = <T>(method: string, input?: unknown): Promise<T> => testbed.call<T>(method, input);

describe('transcripts over the contract', () => {
  let id: string;

  it('creates a job at once, pushes its progress and states, and completes it', async () => {
    const created = await call<TranscriptSummary>('transcripts.create', {
      source: { kind: 'file', path: interview },
      options: { speaker_labels: true, entity_detection: true },
    });
    id = created.id;
    expect(created).toMatchObject({
      status: 'uploading',
      title: 'interview-ferry-contract',
      bytesTotal: expect.any(Number) as number,
    });
    await testbed.services.core.scheduler.idle();
    const states = testbed.events
      .filter((e) => e.event === 'job.updated' && (e.payload as TranscriptSummary).id === id)
      .map((e) => (e.payload as TranscriptSummary).status);
    expect(states.at(-1)).toBe('completed');
    expect(testbed.events.some((e) => e.event === 'job.progress')).toBe(true);
    // Nothing internal leaks into what the renderer sees.
    expect(JSON.stringify(testbed.events)).not.toContain('upload_url');
    expect(testbed.events.every((e) => !('options' in (e.payload as object)))).toBe(true);
  });

  it('returns the transcript with sentences, paragraphs and the service JSON', async () => {
    const detail = await call<TranscriptDetail>('transcripts.get', { id });
    expect(detail.summary.status).toBe('completed');
    expect(detail.sentences.length).toBeGreaterThan(5);
    expect(detail.paragraphs.length).toBeGreaterThan(0);
    // The paragraphs as stored, as time spans and text only: the reader takes words from the sentences.
    const stored = await testbed.services.core.library.paragraphs(id);
    expect(stored.some((paragraph) => paragraph.words.length > 0)).toBe(true);
    expect(detail.paragraphs).toEqual(stored.map((paragraph) => ({ ...paragraph, words: [] })));
    expect(detail.transcript).toHaveProperty('entities');
  });

  it('opens a transcript with its first sentences, saying whether they are all of them', async () => {
    const detail = await call<TranscriptDetail>('transcripts.get', { id });
    const count = detail.sentences.length;
    const start = await call<TranscriptOpening>('transcripts.opening', { id, sentences: 3 });
    expect(start.summary).toEqual(detail.summary);
    expect(start.sentences).toEqual(detail.sentences.slice(0, 3));
    expect(start.complete).toBe(false);
    const lastEnd = detail.sentences[2]!.endMs;
    expect(start.paragraphs).toEqual(detail.paragraphs.filter((paragraph) => paragraph.startMs < lastEnd));
    const whole = await call<TranscriptOpening>('transcripts.opening', { id, sentences: count });
    expect(whole).toMatchObject({
      complete: true,
      sentences: detail.sentences,
      paragraphs: detail.paragraphs,
    });
    // All of it fits: the answer is the whole transcript, so the reader needs no second request.
    expect(whole).toEqual({ ...detail, complete: true });
    expect(await testbed.dispatch('transcripts.opening', { id, sentences: 0 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await testbed.dispatch('transcripts.opening', { id: 'missing', sentences: 40 })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'This transcript is no longer in your library.' },
    });
  });

  it('reads a transcript in one snapshot: another process editing between the reads is not half seen', async () => {
    // The command line, say: a second connection to the same library file.
    const otherProcess = openDatabase(join(testbed.services.dataFolder.current, 'library.sqlite'));
    const otherLibrary = new Library(otherProcess);
    const before = await call<TranscriptDetail>('transcripts.get', { id });
    const word = before.sentences[0]!.words[0]!.text;
    // Its edit lands just after this process read the sentences, before the rest.
    const readStored = TranscriptContent.prototype.sentences;
    const readSentences = vi.spyOn(TranscriptContent.prototype, 'sentences');
    readSentences.mockImplementationOnce(function (this: TranscriptContent, transcriptId: string) {
      const read = readStored.call(this, transcriptId);
      void otherLibrary.edit(id, {
        kind: 'replace',
        find: word,
        replacement: 'Edited',
        wholeWord: true,
        matchCase: true,
      });
      return read;
    });
    try {
      const during = await call<TranscriptDetail>('transcripts.get', { id });
      // Sentences and correction state from the same moment: the edit not yet in either.
      expect(during.sentences).toEqual(before.sentences);
      expect(during.corrections).toEqual(before.corrections);
      const after = await call<TranscriptDetail>('transcripts.get', { id });
      expect(after.sentences[0]!.words[0]!.text).toBe('Edited');
      expect(after.corrections.applied).toBe(before.corrections.applied + 1);
      await otherLibrary.undo(id);
    } finally {
      readSentences.mockRestore();
      otherProcess.close();
    }
  });

  it('renames a speaker once, everywhere', async () => {
    const renamed = await call<TranscriptSummary>('transcripts.renameSpeaker', {
      id,
      label: 'B',
      name: 'Mayor Elena Alvarez',
    });
    expect(renamed.speakers).toContainEqual({ label: 'B', name: 'Mayor Elena Alvarez' });
    const page = await call<SearchPage>('library.search', {
      query: 'ferry',
      filters: { speaker: 'Mayor Elena Alvarez' },
    });
    expect(page.hits.length).toBeGreaterThan(0);
    expect(page.hits.every((hit) => hit.speakerName === 'Mayor Elena Alvarez')).toBe(true);
  });

  it('sets title and tags, and lists them', async () => {
    await call('transcripts.setTitle', { id, title: 'Mayor on the ferry deal' });
    await call('transcripts.setTags', { id, tags: ['ferry', 'council'] });
    const [listed] = await call<TranscriptSummary[]>('transcripts.list', {});
    expect(listed).toMatchObject({ id, title: 'Mayor on the ferry deal', tags: ['council', 'ferry'] });
    const page = await call<SearchPage>('library.search', {
      query: 'ferry',
      filters: { tag: 'council' },
      limit: 5,
    });
    expect(page.hits[0]?.transcriptTitle).toBe('Mayor on the ferry deal');
  });

  it('refuses bad input with messages naming the problem', async () => {
    const badOption = await testbed.dispatch('transcripts.create', {
      source: { kind: 'file', path: interview },
      options: { speakers_expected: 0 },
    });
    expect(badOption).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(!badOption.ok && badOption.error.message).toContain('speakers_expected');
    expect(
      await testbed.dispatch('transcripts.create', { source: { kind: 'url', url: 'not a url' } }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await testbed.dispatch('transcripts.get', { id: 'missing' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await testbed.dispatch('library.search', { query: 'x', limit: 5000 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });

  it('deletes locally and on the service', async () => {
    const remoteId = (await testbed.services.core.library.get(id))?.remoteId;
    expect(await call('transcripts.delete', { id, remote: true })).toEqual({ deleted: id, remote: true });
    expect(await testbed.dispatch('transcripts.get', { id })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    const remote = await fetch(`${testbed.emulator.url}/v2/transcript/${remoteId}`, {
      headers: { Authorization: testbed.emulator.options.key },
    });
    expect(((await remote.json()) as { text: string }).text).toBe('Deleted by user.');
  });
});
