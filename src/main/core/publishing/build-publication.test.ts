import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openDatabase, type Db } from '../library/database';
import { Library } from '../library/library';
import { interviewPii, storeRedactedInterview } from '../library/redacted-interview.test-kit';
import {
  completedTranscriptFromLines,
  misheardTimings,
  storeFinished,
} from '../library/completed-transcript.test-kit';
import { outboxItemSchema, publicationSchema } from '../newsroom/publication';
import { buildPublication, publishTranscript, unpublishTranscript } from './build-publication';
import { VerbatimError } from '../../../shared/errors';

const city = { desk: 'City', confidential: false, withAudio: false };

/** A library in memory, and its database to read the outbox as the archive would receive it. */
const databases = new WeakMap<Library, Db>();
function newLibrary(): Library {
  const db = openDatabase(':memory:');
  const library = new Library(db);
  databases.set(library, db);
  return library;
}

async function storeHarbourInterview(library: Library, id = 'harbour'): Promise<void> {
  await storeFinished(
    library,
    id,
    'Harbour master',
    completedTranscriptFromLines(
      [
        ['A', 'When did the ferry stop?', 0],
        ['B', 'Mr Brenan stopped it in March.', 3000],
      ],
      misheardTimings,
      {
        transcript: { id: `remote-${id}`, language_code: 'en', audio_duration: 6 },
        paragraphs: [
          { text: 'When did the ferry stop?', start: 0, end: 2500, confidence: 0.9 },
          { text: 'Mr Brenan stopped it in March.', start: 3000, end: 5500, confidence: 0.9 },
        ],
      },
    ),
  );
}

/** What the outbox holds, as the archive would receive it. */
function outbox(library: Library): { id: number; transcript_id: string; revision: number; item: unknown }[] {
  return (
    databases
      .get(library)!
      .prepare('SELECT id, transcript_id, revision, item_json FROM newsroom_outbox ORDER BY id')
      .all() as {
      id: number;
      transcript_id: string;
      revision: number;
      item_json: string;
    }[]
  ).map(({ item_json, ...row }) => ({ ...row, item: outboxItemSchema.parse(JSON.parse(item_json)) }));
}

describe('buildPublication', () => {
  it('sends the corrected sentences with their timings, named speakers, tags, highlights with labels and notes, and review stamps', async () => {
    const library = newLibrary();
    await storeHarbourInterview(library);
    await library.edit('harbour', {
      kind: 'replace',
      find: 'Brenan',
      replacement: 'Brennan',
      wholeWord: true,
      matchCase: true,
    });
    await library.renameSpeaker('harbour', 'B', 'Ann Lowe');
    await library.setTags('harbour', ['ferry', 'port']);
    const label = await library.highlightLabelNamed('Quote');
    await library.createHighlight({
      transcriptId: 'harbour',
      startMs: 3000,
      endMs: 4500,
      labelId: label.id,
      note: 'Lead',
    });
    await library.setParagraphChecked('harbour', 1, true);

    const { content } = await buildPublication(library, 'harbour', city);

    expect(publicationSchema.safeParse({ ...content, revision: 1 }).success).toBe(true);
    expect(content).toMatchObject({
      transcriptId: 'harbour',
      desk: 'City',
      confidential: false,
      title: 'Harbour master',
      languageCode: 'en',
      redacted: false,
      tags: ['ferry', 'port'],
      speakers: [
        { label: 'A', name: null },
        { label: 'B', name: 'Ann Lowe' },
      ],
      audio: null,
    });
    expect(content.sentences.map((s) => s.text)).toEqual([
      'When did the ferry stop?',
      'Mr Brennan stopped it in March.',
    ]);
    expect(content.sentences[1]!.words[1]).toMatchObject({ text: 'Brennan', start: 3400, corrected: true });
    expect(content.highlights).toEqual([
      {
        startMs: 3000,
        endMs: 4550,
        label: 'Quote',
        note: 'Lead',
        text: 'Mr Brennan stopped it',
        speaker: 'Ann Lowe',
      },
    ]);
    // The stamps say no one's name (the archive writes the publishing login); the spans let a copy place them.
    expect(content.checkedParagraphs).toEqual([{ paragraph: 1, checkedAt: expect.any(Number) as number }]);
    expect(content.paragraphs).toEqual([
      { startMs: 0, endMs: 2500 },
      { startMs: 3000, endMs: 5500 },
    ]);
  });

  it('publishes a redacted transcript redacted: no redacted detail anywhere, whatever the reporter did to it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('entity_name', 'hash'),
        fc.array(fc.tuple(fc.nat(60_000), fc.integer({ min: 200, max: 20_000 })), { maxLength: 4 }),
        fc.array(fc.nat(12), { maxLength: 3 }),
        fc.boolean(),
        async (sub, spans, checked, confidential) => {
          const library = newLibrary();
          await storeRedactedInterview(library, 'mayor', { redact_pii_sub: sub });
          for (const [startMs, length] of spans)
            await library
              .createHighlight({ transcriptId: 'mayor', startMs, endMs: startMs + length })
              .catch(() => undefined);
          const paragraphs = (await library.paragraphs('mayor', { words: false })).length;
          for (const paragraph of checked)
            if (paragraph < paragraphs) await library.setParagraphChecked('mayor', paragraph, true);

          await publishTranscript(library, 'mayor', { ...city, confidential });

          const [queued] = outbox(library);
          const json = JSON.stringify(queued!.item).toLowerCase();
          for (const detail of [interviewPii.phone, interviewPii.email, 'porthollow'])
            expect(json.includes(detail), `the publication shows ${detail}`).toBe(false);
          expect(queued!.item).toMatchObject({
            kind: 'publish',
            publication: { redacted: true, confidential },
          });
        },
      ),
      { numRuns: 15 },
    );
  });

  it('refuses a desk without a name, in a sentence', async () => {
    const library = newLibrary();
    await storeHarbourInterview(library);
    await expect(buildPublication(library, 'harbour', { ...city, desk: '  ' })).rejects.toThrow(
      'Name the desk to publish to, in at most 50 characters.',
    );
  });
});

describe('publishTranscript and unpublishTranscript', () => {
  it('queue the next revision with the waiting state in one go, the newest replacing the one still waiting', async () => {
    const library = newLibrary();
    await storeHarbourInterview(library);
    await storeHarbourInterview(library, 'ferry');

    expect(await publishTranscript(library, 'harbour', city)).toMatchObject({
      revisionRequested: 1,
      revisionPublished: null,
      state: 'waiting',
    });
    await publishTranscript(library, 'ferry', { ...city, desk: 'Politics' });
    await library.edit('harbour', {
      kind: 'replace',
      find: 'Brenan',
      replacement: 'Brennan',
      wholeWord: true,
      matchCase: true,
    });
    expect(await publishTranscript(library, 'harbour', { ...city, confidential: true })).toMatchObject({
      revisionRequested: 2,
      confidential: true,
      state: 'waiting',
    });

    const queued = outbox(library);
    expect(queued.map((row) => [row.transcript_id, row.revision])).toEqual([
      ['ferry', 1],
      ['harbour', 2],
    ]);
    expect(JSON.stringify(queued[1]!.item)).toContain('Brennan');

    expect(await unpublishTranscript(library, 'harbour')).toMatchObject({
      revisionRequested: 3,
      state: 'unpublishing',
    });
    expect(outbox(library).map((row) => row.item)).toEqual([
      expect.objectContaining({ kind: 'publish' }),
      { kind: 'unpublish', transcriptId: 'harbour', revision: 3 },
    ]);
  });

  it('refuse an unknown or unfinished transcript, and unpublishing one never published, in sentences', async () => {
    const library = newLibrary();
    await expect(publishTranscript(library, 'nothing', city)).rejects.toThrow(
      'This transcript is no longer in your library.',
    );
    await library.createJob({
      id: 'fresh',
      title: 'Council',
      sourceKind: 'file',
      source: '/recordings/fresh.wav',
      audioPath: null,
      region: 'us',
      options: {},
      status: 'processing',
    });
    const unfinished = await publishTranscript(library, 'fresh', city).catch((error: unknown) => error);
    expect(unfinished).toBeInstanceOf(VerbatimError);
    expect((unfinished as VerbatimError).message).toMatch(/^"Council" is not finished yet/);
    await storeHarbourInterview(library);
    await expect(unpublishTranscript(library, 'harbour')).rejects.toThrow(
      '"Harbour master" is not in the newsroom archive, so there is nothing to unpublish.',
    );
    expect(outbox(library)).toEqual([]);
    expect(await library.newsroomPublication('harbour')).toBeUndefined();
  });
});
