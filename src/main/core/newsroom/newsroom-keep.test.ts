import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatCitation } from '../../../shared/citation';
import { VerbatimError } from '../../../shared/errors';
import { storyDocument } from '../export/story-document';
import { storyExportOptionsSchema } from '../../../shared/story-export-options';
import { openDatabase, type Db } from '../library/database';
import { Library, newsroomCopyId } from '../library/library';
import { NewsroomArchive } from './newsroom-archive';
import {
  connectionAs,
  samplePublication,
  sampleSentences,
  setUpSampleNewsroom,
} from './newsroom-archive.test-kit';
import type { NewsroomConnection } from './newsroom-connection';
import { keepNewsroomTranscript, type KeepProgress } from './newsroom-keep';
import { useNewsroomServer } from './newsroom-server.test-kit';
import type { Publication } from './publication';

/**
 * Keeping a colleague's transcript in one's own library (issue #35, point 6), against a real
 * PostgreSQL: ana (City) publishes, ben (City) keeps; dev (Politics) may not see City's work.
 */
const server = useNewsroomServer();
let ben: NewsroomConnection;
let db: Db;
let library: Library;
let audioDir: string;
let clock = 1_000;

async function publishAs(
  user: string,
  publication: Publication,
  audio?: Uint8Array<ArrayBuffer>,
): Promise<void> {
  const connection = connectionAs(server(), user);
  try {
    const archive = new NewsroomArchive(connection);
    await archive.apply({ kind: 'publish', publication });
    if (audio)
      for (let chunkIndex = 0; chunkIndex * 1000 < audio.byteLength; chunkIndex++)
        await archive.putAudioChunk({
          transcriptId: publication.transcriptId,
          revision: publication.revision,
          clip: 'recording',
          chunkIndex,
          bytes: audio.subarray(chunkIndex * 1000, (chunkIndex + 1) * 1000),
        });
  } finally {
    await connection.close();
  }
}

function withAudio(bytes: Uint8Array<ArrayBuffer>): Publication['audio'] {
  return {
    byteLength: bytes.byteLength,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    mimeType: 'audio/wav',
  };
}

const keep = (reporter: string, transcriptId: string, onProgress?: (progress: KeepProgress) => void) =>
  keepNewsroomTranscript(ben, library, { reporter, transcriptId }, { audioDir, onProgress });

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  ben = connectionAs(server(), 'ben');
});

afterAll(async () => {
  await ben.close();
});

beforeEach(() => {
  db = openDatabase(':memory:');
  library = new Library(db, () => clock++);
  audioDir = mkdtempSync(join(tmpdir(), 'verbatim-kept-audio-'));
});

afterEach(() => {
  db.close();
  rmSync(audioDir, { recursive: true, force: true });
});

describe('keeping a newsroom transcript', () => {
  it('copies the published words, timings, speakers, title, date and language, and not the highlights', async () => {
    await publishAs('ana', samplePublication('pier', 1, { title: 'The pier' }));
    const kept = await keep('ana', 'pier');
    expect(kept).toEqual({
      id: newsroomCopyId('ana', 'pier'),
      outcome: 'created',
      created: true,
      revision: 1,
      title: 'The pier',
      hasAudio: false,
    });
    const job = await library.requireJob(kept.id);
    expect(job).toMatchObject({
      title: 'The pier',
      status: 'completed',
      audioPath: null,
      languageCode: 'en',
      audioDurationMs: 60_000,
      createdAt: Date.UTC(2025, 3, 14, 9, 30),
      fromNewsroom: { reporter: 'ana', transcriptId: 'pier', desk: 'City', revision: 1 },
    });
    expect(job.speakers).toEqual([
      { label: 'A', name: 'Harbour master' },
      { label: 'B', name: 'Speaker B' },
    ]);
    const published = samplePublication('pier', 1);
    const sentences = await library.sentences(kept.id);
    expect(
      sentences.map(({ startMs, endMs, speaker, text, words }) => ({ startMs, endMs, speaker, text, words })),
    ).toEqual(
      published.sentences.map(({ startMs, endMs, speaker, text, words }) => ({
        startMs,
        endMs,
        speaker,
        text,
        words,
      })),
    );
    // The colleague's highlights are theirs: the copy starts with none.
    expect(await library.highlightsOf(kept.id)).toEqual([]);
    // The copy is found by search like any transcript.
    expect((await library.search('harbour')).hits.some((hit) => hit.transcriptId === kept.id)).toBe(true);
  });

  it('keeping the same revision again changes nothing', async () => {
    await publishAs('ana', samplePublication('same', 1));
    const first = await keep('ana', 'same');
    const before = await library.requireJob(first.id);
    const again = await keep('ana', 'same');
    expect(again).toMatchObject({ id: first.id, outcome: 'unchanged', created: false, revision: 1 });
    expect(await library.requireJob(first.id)).toEqual(before);
  });

  it("brings the copy to a newer revision, and the reporter's highlights keep their times", async () => {
    await publishAs('ana', samplePublication('newer', 1));
    const { id } = await keep('ana', 'newer');
    const highlight = await library.createHighlight({ transcriptId: id, startMs: 3000, endMs: 5500 });
    const story = await library.createStory('Harbour piece');
    await library.addQuoteToStory(story.id, highlight.id);
    await publishAs('ana', samplePublication('newer', 2, { title: 'The harbour, corrected' }));
    const kept = await keep('ana', 'newer');
    expect(kept).toMatchObject({ id, outcome: 'updated', created: false, revision: 2 });
    const job = await library.requireJob(id);
    expect(job).toMatchObject({ title: 'The harbour, corrected', fromNewsroom: { revision: 2 } });
    expect(await library.sentences(id)).toHaveLength(3);
    const [after] = await library.highlightsOf(id);
    expect(after).toMatchObject({ id: highlight.id, startMs: highlight.startMs, endMs: highlight.endMs });
    expect(after?.text).toBe('revision 2 of the harbour 1');
    const [quote] = (await library.story(story.id)).items;
    expect(quote).toMatchObject({ kind: 'quote', text: 'revision 2 of the harbour 1' });
  });

  it('downloads the published recording chunk by chunk, byte for byte, and plays it offline', async () => {
    const recording = new Uint8Array(randomBytes(4321));
    await publishAs('ana', samplePublication('heard', 1, { audio: withAudio(recording) }), recording);
    const progress: KeepProgress[] = [];
    const kept = await keep('ana', 'heard', (step) => progress.push(step));
    expect(kept.hasAudio).toBe(true);
    const job = await library.requireJob(kept.id);
    expect(job.audioPath).not.toBeNull();
    expect(job.audioPath!.startsWith(audioDir)).toBe(true);
    expect(job.audioPath!.endsWith('.wav')).toBe(true);
    expect(Buffer.compare(readFileSync(job.audioPath!), recording)).toBe(0);
    expect(progress.at(0)).toEqual({ bytes: 0, totalBytes: 4321 });
    expect(progress.at(-1)).toEqual({ bytes: 4321, totalBytes: 4321 });
    expect(progress).toHaveLength(6);
    // A newer revision with the same recording keeps the file; another recording replaces it.
    await publishAs('ana', samplePublication('heard', 2, { audio: withAudio(recording) }));
    await keep('ana', 'heard');
    expect((await library.requireJob(kept.id)).audioPath).toBe(job.audioPath);
    const other = new Uint8Array(randomBytes(1500));
    await publishAs('ana', samplePublication('heard', 3, { audio: withAudio(other) }), other);
    await keep('ana', 'heard');
    const replaced = (await library.requireJob(kept.id)).audioPath!;
    expect(Buffer.compare(readFileSync(replaced), other)).toBe(0);
    expect(existsSync(job.audioPath!)).toBe(false);
    expect(readdirSync(audioDir)).toEqual([replaced.slice(audioDir.length + 1)]);
  });

  it('an interrupted download goes on where it stopped: only the chunks not yet there are read', async () => {
    const recording = new Uint8Array(randomBytes(4321));
    await publishAs('ana', samplePublication('resumed', 1, { audio: withAudio(recording) }), recording);
    // The network boundary: the archive's reads of a chunk's bytes, counted and, once, cut after two.
    const chunkReads: number[] = [];
    let lostAfter: number | undefined = 2;
    const counted = new Proxy(ben, {
      get(target, property, receiver) {
        if (property !== 'query') {
          const value: unknown = Reflect.get(target, property, receiver);
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        }
        return async (text: string, values: readonly unknown[] = []) => {
          if (/^SELECT bytes FROM verbatim\.published_audio_chunks/.test(text)) {
            if (lostAfter !== undefined && chunkReads.length === lostAfter)
              throw new VerbatimError('network', 'The connection to the newsroom was lost.');
            chunkReads.push(values[3] as number);
          }
          return target.query(text, values);
        };
      },
    });
    const keepThrough = (onProgress?: (progress: KeepProgress) => void) =>
      keepNewsroomTranscript(
        counted,
        library,
        { reporter: 'ana', transcriptId: 'resumed' },
        { audioDir, onProgress },
      );

    await expect(keepThrough()).rejects.toMatchObject({ code: 'network' });
    expect(chunkReads).toEqual([0, 1]);
    expect(await library.get(newsroomCopyId('ana', 'resumed'))).toBeUndefined();
    // The two chunks done stay on disk, in the partial file.
    const [partial] = readdirSync(audioDir);
    expect(partial).toMatch(/\.part$/);
    expect(readFileSync(join(audioDir, partial!)).byteLength).toBe(2000);

    lostAfter = undefined;
    chunkReads.length = 0;
    const progress: KeepProgress[] = [];
    const kept = await keepThrough((step) => progress.push(step));
    expect(chunkReads).toEqual([2, 3, 4]);
    expect(progress.map((step) => step.bytes)).toEqual([2000, 3000, 4000, 4321]);
    // Verified over the whole: byte for byte the published recording, and no part left.
    const job = await library.requireJob(kept.id);
    expect(Buffer.compare(readFileSync(job.audioPath!), recording)).toBe(0);
    expect(readdirSync(audioDir)).toEqual([job.audioPath!.slice(audioDir.length + 1)]);
  });

  it('a partial chunk at the end of an interrupted download is read again, and a wrong part is refused and removed', async () => {
    const recording = new Uint8Array(randomBytes(2500));
    await publishAs('ana', samplePublication('torn', 1, { audio: withAudio(recording) }), recording);
    const id = newsroomCopyId('ana', 'torn');
    const partial = join(audioDir, `${id}-r1.wav.part`);
    // A chunk and a half of it, the half torn mid-write.
    writeFileSync(partial, recording.subarray(0, 1500));
    const kept = await keep('ana', 'torn');
    expect(Buffer.compare(readFileSync((await library.requireJob(kept.id)).audioPath!), recording)).toBe(0);

    // A part whose bytes are not the recording's (a disk error) fails the checksum over the whole.
    const other = new Uint8Array(randomBytes(2500));
    await publishAs('ana', samplePublication('spoiled', 1, { audio: withAudio(other) }), other);
    const spoiled = join(audioDir, `${newsroomCopyId('ana', 'spoiled')}-r1.wav.part`);
    writeFileSync(spoiled, new Uint8Array(1000));
    await expect(keep('ana', 'spoiled')).rejects.toMatchObject({ code: 'conflict' });
    expect(existsSync(spoiled)).toBe(false);
    // Kept again, it starts afresh and is right.
    await keep('ana', 'spoiled');
    expect(
      Buffer.compare(
        readFileSync((await library.requireJob(newsroomCopyId('ana', 'spoiled'))).audioPath!),
        other,
      ),
    ).toBe(0);
  });

  it('refuses, in words, a recording that is not the one published, leaving nothing behind', async () => {
    const recording = new Uint8Array(randomBytes(2500));
    const tampered = Uint8Array.from(recording);
    tampered[10] = (tampered[10]! + 1) % 256;
    await publishAs('ana', samplePublication('tampered', 1, { audio: withAudio(recording) }), tampered);
    await expect(keep('ana', 'tampered')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(
        'The newsroom holds 2,500 of the 2,500 bytes of the recording of "Harbour interview, revision 1", and they are not the recording ana published',
      ) as string,
    });
    expect(await library.get(newsroomCopyId('ana', 'tampered'))).toBeUndefined();
    expect(readdirSync(audioDir)).toEqual([]);
  });

  it('a transcript the reporter may not see is not found, as one that does not exist', async () => {
    await publishAs('dev', samplePublication('minister', 1, { desk: 'Politics' }));
    await publishAs('ana', samplePublication('secret', 1, { confidential: true }));
    for (const [reporter, transcriptId] of [
      ['dev', 'minister'],
      ['ana', 'secret'],
      ['ana', 'nothing-here'],
    ] as const)
      await expect(keep(reporter, transcriptId)).rejects.toMatchObject({
        code: 'not_found',
        message: `There is no transcript ${reporter}/${transcriptId} in the newsroom that you can see: check the reporter and the id (as newsroom search shows them).`,
      });
    expect(await library.list()).toEqual([]);
  });

  it('refuses corrections, speaker names, a title, review stamps and publishing on the copy, in main', async () => {
    await publishAs('ana', samplePublication('guarded', 1));
    const { id } = await keep('ana', 'guarded');
    const refused = {
      code: 'forbidden',
      message: expect.stringContaining("A colleague's transcript from the newsroom: read only") as string,
    };
    await expect(
      library.edit(id, { kind: 'text', from: 0, count: 1, text: 'Words never said' }),
    ).rejects.toMatchObject(refused);
    await expect(library.undo(id)).rejects.toMatchObject(refused);
    await expect(library.redo(id)).rejects.toMatchObject(refused);
    await expect(library.renameSpeaker(id, 'A', 'Someone')).rejects.toMatchObject(refused);
    await expect(library.setTitle(id, 'Mine now')).rejects.toMatchObject(refused);
    await expect(library.setParagraphChecked(id, 0, true)).rejects.toMatchObject(refused);
    await expect(library.relink(id, '/elsewhere.wav')).rejects.toMatchObject(refused);
    // What is the reporter's own is allowed: highlights, notes, tags.
    const highlight = await library.createHighlight({
      transcriptId: id,
      startMs: 0,
      endMs: 2500,
      note: 'lead',
    });
    expect(highlight.note).toBe('lead');
    await library.setTags(id, ['follow-up']);
    expect((await library.requireJob(id)).tags).toEqual(['follow-up']);
  });
});

describe("keeping a colleague's review stamps (issue #36, point 3)", () => {
  // Four sentences, speakers A B A B: four turns, but ana's service made two paragraphs of them.
  const paragraphs = [
    { startMs: 0, endMs: 5500 },
    { startMs: 6000, endMs: 11_500 },
  ];
  const checkedOn = Date.UTC(2025, 3, 15, 12);
  const stamped = (revision: number, checked: number[]) =>
    samplePublication('stamped', revision, {
      sentences: sampleSentences(4, `revision ${revision} of the harbour`),
      paragraphs,
      checkedParagraphs: checked.map((paragraph) => ({ paragraph, checkedAt: checkedOn + revision })),
    });

  it("takes ana's paragraphs and stamps with her login as who checked, so a quote of it says so in the story and its export", async () => {
    // Nobody can publish a stamp in a colleague's name: the archive writes the publishing login.
    const claimed = stamped(1, [1]);
    await publishAs('ana', {
      ...claimed,
      checkedParagraphs: [
        { ...claimed.checkedParagraphs[0]!, checkedBy: 'cleo' } as Publication['checkedParagraphs'][number],
      ],
    });
    const { id } = await keep('ana', 'stamped');
    // Numbered as ana's paragraphs, not as the turns, so her stamp covers the words she listened to.
    expect((await library.paragraphs(id)).map((paragraph) => [paragraph.startMs, paragraph.text])).toEqual([
      [0, 'revision 1 of the harbour 0 revision 1 of the harbour 1'],
      [6000, 'revision 1 of the harbour 2 revision 1 of the harbour 3'],
    ]);
    expect((await library.correctionState(id)).checks).toEqual([
      { paragraph: 1, checkedAt: checkedOn + 1, checkedBy: 'ana' },
    ]);
    const checkedQuote = await library.createHighlight({ transcriptId: id, startMs: 6000, endMs: 8000 });
    const uncheckedQuote = await library.createHighlight({ transcriptId: id, startMs: 3000, endMs: 5000 });
    const across = await library.createHighlight({ transcriptId: id, startMs: 3000, endMs: 8000 });
    const quotes = new Map((await library.quotes()).quotes.map((quote) => [quote.id, quote.checked]));
    expect(quotes.get(checkedQuote.id)).toEqual({ by: 'ana', at: checkedOn + 1 });
    expect(quotes.get(uncheckedQuote.id)).toBeNull();
    expect(quotes.get(across.id)).toBeNull();
    const story = await library.createStory('Harbour piece');
    await library.addQuoteToStory(story.id, checkedQuote.id);
    await library.addQuoteToStory(story.id, uncheckedQuote.id);
    const items = (await library.story(story.id)).items;
    expect(items.map((item) => item.kind === 'quote' && item.checked)).toEqual([
      { by: 'ana', at: checkedOn + 1 },
      null,
    ]);
    expect(formatCitation(items[0] as Parameters<typeof formatCitation>[0], '{time}', 'UTC')).toBe(
      '00:00:06, recorded by ana, City desk, checked against the audio by ana on Apr 15, 2025',
    );
    const citations = storyDocument(
      await library.story(story.id),
      storyExportOptionsSchema.parse({ timeZone: 'UTC', citation: '{time}' }),
    ).blocks.map((block) => (block.kind === 'quote' ? block.citation : ''));
    expect(citations).toEqual([
      '00:00:06, recorded by ana, City desk, checked against the audio by ana on Apr 15, 2025',
      '00:00:03, recorded by ana, City desk, not checked against the audio',
    ]);
  });

  it("keeping a newer revision replaces the stamps with that revision's", async () => {
    await publishAs('ana', stamped(1, [1]));
    const { id } = await keep('ana', 'stamped');
    const first = await library.createHighlight({ transcriptId: id, startMs: 0, endMs: 2000 });
    const second = await library.createHighlight({ transcriptId: id, startMs: 6000, endMs: 8000 });
    await publishAs('ana', stamped(2, [0]));
    expect(await keep('ana', 'stamped')).toMatchObject({ outcome: 'updated', revision: 2 });
    expect((await library.correctionState(id)).checks).toEqual([
      { paragraph: 0, checkedAt: checkedOn + 2, checkedBy: 'ana' },
    ]);
    const quotes = new Map((await library.quotes()).quotes.map((quote) => [quote.id, quote.checked]));
    expect(quotes.get(first.id)).toEqual({ by: 'ana', at: checkedOn + 2 });
    expect(quotes.get(second.id)).toBeNull();
  });

  it('takes no stamps from a revision published before paragraphs travelled: it could not place them', async () => {
    // The sample publication stamps paragraph 0 and sends no paragraphs, as a publication queued by an older Verbatim.
    await publishAs('ana', samplePublication('older', 1));
    const { id } = await keep('ana', 'older');
    expect((await library.correctionState(id)).checks).toEqual([]);
    // Its paragraphs are its speakers' turns, as before.
    expect(await library.paragraphs(id)).toHaveLength(2);
  });
});
