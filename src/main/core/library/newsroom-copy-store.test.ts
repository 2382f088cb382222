import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database';
import { Library, newsroomCopyId, type NewsroomCopyContent } from './library';
import { completedTranscriptFromLines, misheardTimings } from './completed-transcript.test-kit';
import { formatCitation } from '../../../shared/citation';
import { storyExportOptionsSchema } from '../../../shared/story-export-options';
import { storyDocument } from '../export/story-document';

/**
 * A copy kept from the newsroom is read only in main (issue #35, point 6): whatever mix of
 * corrections, renames and publishing is tried on it, between highlights and tags of the
 * reporter's own, every change to it is refused in the same words and its words never change.
 */
let db: Db;
let library: Library;
let clock = 1_000;

function words(text: string, startMs: number) {
  return text.split(' ').map((word, index) => ({
    text: word,
    start: startMs + index * 400,
    end: startMs + index * 400 + 350,
    confidence: 0.9,
  }));
}

const copy: NewsroomCopyContent = {
  reporter: 'ana',
  transcriptId: 'harbour',
  desk: 'City',
  revision: 1,
  title: 'The harbour master',
  recordedAt: Date.UTC(2025, 3, 14),
  languageCode: 'en',
  durationMs: 9000,
  speakers: [{ label: 'A', name: 'Harbour master' }],
  sentences: ['I run the harbour at night', 'The tides decide', 'Nobody asked us'].map((text, index) => ({
    startMs: index * 3000,
    endMs: index * 3000 + 2500,
    speaker: index === 2 ? 'B' : 'A',
    text,
    words: words(text, index * 3000),
  })),
  paragraphs: null,
  checks: [],
  audio: null,
};

const id = newsroomCopyId('ana', 'harbour');

type Refused = (library: Library) => Promise<unknown>;

const refusedCommands: Record<string, Refused> = {
  'correct words': (l) => l.edit(id, { kind: 'text', from: 0, count: 1, text: 'I never said that' }),
  'change a speaker': (l) => l.edit(id, { kind: 'speaker', from: 1, count: 1, speaker: { label: 'B' } }),
  undo: (l) => l.undo(id),
  redo: (l) => l.redo(id),
  'rename a speaker': (l) => l.renameSpeaker(id, 'A', 'Someone else'),
  'retitle it': (l) => l.setTitle(id, 'Mine now'),
  'stamp a paragraph': (l) => l.setParagraphChecked(id, 0, true),
  'relink its recording': (l) => l.relink(id, '/elsewhere.wav'),
  'transcribe it again': (l) =>
    l.saveCompleted(
      id,
      completedTranscriptFromLines([['A', 'Other words entirely.', 0]], misheardTimings, {
        transcript: { id: 'remote-other' },
      }),
    ),
  publish: (l) =>
    l.queueNewsroomPublish(
      {
        transcriptId: id,
        desk: 'City',
        confidential: false,
        title: 'Mine now',
        recordedAt: 0,
        languageCode: 'en',
        durationMs: null,
        redacted: false,
        speakers: [],
        tags: [],
        sentences: [],
        highlights: [],
        checkedParagraphs: [],
        audio: null,
      },
      false,
    ),
};

const allowedCommands: Record<string, (library: Library) => Promise<unknown>> = {
  highlight: (l) => l.createHighlight({ transcriptId: id, startMs: 3000, endMs: 5500 }),
  tag: (l) => l.setTags(id, ['harbour']),
};

beforeEach(async () => {
  db = openDatabase(':memory:');
  library = new Library(db, () => clock++);
  await library.keepNewsroomCopy(copy);
});

afterEach(() => db.close());

describe('a copy kept from the newsroom', () => {
  it('refuses every change to its words, in main, whatever the sequence', async () => {
    const before = await library.transcriptReading(id);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...Object.keys(refusedCommands), ...Object.keys(allowedCommands)), {
          maxLength: 12,
        }),
        async (commands) => {
          for (const command of commands) {
            const refused = refusedCommands[command];
            if (refused)
              await expect(refused(library)).rejects.toMatchObject({
                code: 'forbidden',
                message: expect.stringMatching(
                  /^A colleague's transcript from the newsroom: read only: .+ stays with the reporter who recorded it\./,
                ) as string,
              });
            else await allowedCommands[command]!(library);
          }
          const after = await library.transcriptReading(id);
          expect(after.sentences).toEqual(before.sentences);
          expect(after.paragraphs).toEqual(before.paragraphs);
          expect(after.corrections.applied).toBe(0);
          expect(after.job.title).toBe('The harbour master');
          expect(after.job.speakers).toEqual(before.job.speakers);
          expect(await library.newsroomPublication(id)).toBeUndefined();
        },
      ),
      { numRuns: 40 },
    );
  });

  it("groups the archive's sentences into turns, one paragraph per run of a speaker", async () => {
    const paragraphs = await library.paragraphs(id);
    expect(paragraphs.map((paragraph) => [paragraph.speaker, paragraph.text])).toEqual([
      ['A', 'I run the harbour at night The tides decide'],
      ['B', 'Nobody asked us'],
    ]);
  });

  it('names the reporter who recorded it wherever a quote of it is cited', async () => {
    const highlight = await library.createHighlight({ transcriptId: id, startMs: 3000, endMs: 5500 });
    const recordedBy = { reporter: 'ana', desk: 'City' };
    expect((await library.quotes()).quotes[0]).toMatchObject({ id: highlight.id, recordedBy });
    const story = await library.createStory('Night shift');
    const [item] = (await library.addQuoteToStory(story.id, highlight.id)).items;
    expect(item).toMatchObject({ kind: 'quote', text: 'The tides decide', recordedBy });
    expect(formatCitation(item as Parameters<typeof formatCitation>[0], '{speaker}, {time}')).toBe(
      'Harbour master, 00:00:03, recorded by ana, City desk, not checked against the audio',
    );
    const document = storyDocument(
      await library.story(story.id),
      storyExportOptionsSchema.parse({ sourceList: true, timeZone: 'UTC' }),
    );
    expect(document.blocks).toContainEqual({
      kind: 'quote',
      text: '“The tides decide”',
      citation:
        'Harbour master, “The harbour master”, Apr 14, 2025, 00:00:03, recorded by ana, City desk, not checked against the audio',
    });
    expect(JSON.stringify(document.blocks)).toContain(
      '“The harbour master”, Apr 14, 2025, recorded by ana, City desk: quote at 00:00:03',
    );
    // Kept as text after the copy is deleted, the quote still names who recorded it.
    await library.delete(id);
    const [kept] = (await library.story(story.id)).items;
    expect(kept).toMatchObject({ kind: 'quote', transcriptId: null, recordedBy });
  });
});
