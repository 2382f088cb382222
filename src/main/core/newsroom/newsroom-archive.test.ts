import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerbatimError } from '../../../shared/errors';
import { NewsroomArchive, type AudioChunk, type AudioClip } from './newsroom-archive';
import {
  archivedState,
  connectionAs,
  sampleSentences,
  samplePublication,
  setUpSampleNewsroom,
} from './newsroom-archive.test-kit';
import type { NewsroomConnection } from './newsroom-connection';
import { useNewsroomServer } from './newsroom-server.test-kit';
import type { OutboxItem } from './publication';

const server = useNewsroomServer();
let ana: NewsroomConnection;
let archive: NewsroomArchive;

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  ana = connectionAs(server(), 'ana');
  archive = new NewsroomArchive(ana);
});
afterAll(async () => {
  await ana.close();
});

const publishing = (transcriptId: string, revision: number): OutboxItem => ({
  kind: 'publish',
  publication: samplePublication(transcriptId, revision),
});

describe('NewsroomArchive.apply', () => {
  it('applying the same publication twice leaves one transcript with its sentences and highlights once', async () => {
    await archive.apply(publishing('twice', 2));
    await archive.apply(publishing('twice', 2));
    expect(await archivedState(server(), 'ana', 'twice')).toEqual({
      revision: 2,
      title: 'Harbour interview, revision 2',
      sentences: 3,
      highlights: ['from revision 2'],
    });
    const row = await server().pool.query(
      `SELECT desk, confidential, language, duration_ms, redacted, tags, speakers,
              recorded_at = to_timestamp($1::double precision / 1000) AS recorded
       FROM verbatim.published_transcripts WHERE transcript_id = 'twice'`,
      [Date.UTC(2025, 3, 14, 9, 30)],
    );
    expect(row.rows).toEqual([
      {
        desk: 'City',
        confidential: false,
        language: 'en',
        duration_ms: '60000',
        redacted: false,
        tags: ['harbour', 'rev-2'],
        speakers: [
          { label: 'A', name: 'Harbour master' },
          { label: 'B', name: null },
        ],
        recorded: true,
      },
    ]);
  });

  it('a newer revision replaces the sentences; an older one arriving late is ignored, not an error', async () => {
    await archive.apply(publishing('late', 1));
    await archive.apply(publishing('late', 3));
    await archive.apply(publishing('late', 2));
    expect(await archivedState(server(), 'ana', 'late')).toMatchObject({ revision: 3, sentences: 4 });
  });

  it('unpublishing removes the transcript and all of it; an older publish arriving after cannot revive it, a newer one can', async () => {
    await archive.apply(publishing('withdrawn', 2));
    await archive.apply({ kind: 'unpublish', transcriptId: 'withdrawn', revision: 1 });
    expect(await archivedState(server(), 'ana', 'withdrawn')).toMatchObject({ revision: 2 });
    await archive.apply({ kind: 'unpublish', transcriptId: 'withdrawn', revision: 2 });
    expect(await archivedState(server(), 'ana', 'withdrawn')).toBeNull();
    await archive.apply(publishing('withdrawn', 2));
    expect(await archivedState(server(), 'ana', 'withdrawn')).toBeNull();
    await archive.apply(publishing('withdrawn', 3));
    expect(await archivedState(server(), 'ana', 'withdrawn')).toMatchObject({ revision: 3 });
  });

  it('publishes a 3,000-sentence transcript in one transaction, searchable by its words', async () => {
    const publication = samplePublication('long', 1, { sentences: sampleSentences(3000) });
    await archive.apply({ kind: 'publish', publication });
    expect(await archivedState(server(), 'ana', 'long')).toMatchObject({ sentences: 3000 });
    const found = await server().pool.query<{ position: number; words: unknown }>(
      `SELECT position, words FROM verbatim.published_sentences
       WHERE transcript_id = 'long' AND search @@ to_tsquery('simple', 'harb:* & 2999')`,
    );
    expect(found.rows).toEqual([{ position: 2999, words: publication.sentences[2999]!.words }]);
  });

  it('an invalid item, or a failure half-way through applying one, leaves the previous revision as it was', async () => {
    await archive.apply(publishing('intact', 1));
    const invalid = samplePublication('intact', 2, {
      sentences: sampleSentences(2).map((s) => ({ ...s, position: 0 })),
    });
    await expect(archive.apply({ kind: 'publish', publication: invalid })).rejects.toThrow(
      "The newsroom's archive cannot take this publication (two sentences have the same position): publish the transcript again, and report it if it keeps happening.",
    );
    const malformed = { kind: 'publish', publication: { ...samplePublication('intact', 2), revision: -1 } };
    const refusal = await archive.apply(malformed as OutboxItem).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: 'invalid_input' });
    expect((refusal as VerbatimError).message).toMatch(
      /^The newsroom's archive cannot take this publication \(publication\.revision: [^.]+\): publish the transcript again, and report it if it keeps happening\.$/,
    );
    // A fault after the transcript's row is replaced: its sentences cannot be written.
    await server().pool.query(
      "ALTER TABLE verbatim.published_sentences ADD CONSTRAINT fault CHECK (text NOT LIKE 'revision 2 %') NOT VALID",
    );
    try {
      await expect(archive.apply(publishing('intact', 2))).rejects.toMatchObject({ code: '23514' });
    } finally {
      await server().pool.query('ALTER TABLE verbatim.published_sentences DROP CONSTRAINT fault');
    }
    expect(await archivedState(server(), 'ana', 'intact')).toEqual({
      revision: 1,
      title: 'Harbour interview, revision 1',
      sentences: 2,
      highlights: ['from revision 1'],
    });
  });

  it('publishing to a desk that does not exist or that the reporter is not on is refused in words', async () => {
    await expect(
      archive.apply({ kind: 'publish', publication: samplePublication('elsewhere', 1, { desk: 'Sport' }) }),
    ).rejects.toThrow(
      "There is no desk called Sport in this newsroom: publish to one of your desks, or ask your newsroom's administrator to create it.",
    );
    await expect(
      archive.apply({
        kind: 'publish',
        publication: samplePublication('elsewhere', 1, { desk: 'Politics' }),
      }),
    ).rejects.toThrow(
      "You are not on the desk Politics in this newsroom, so you cannot publish to it: publish to one of your desks, or ask your newsroom's administrator to add you.",
    );
    expect(await archivedState(server(), 'ana', 'elsewhere')).toBeNull();
  });

  it('any sequence of publishes and unpublishes, in any order, with duplicates, at once or one by one, ends in the state of the highest revision', async () => {
    let run = 0;
    const item = fc.record({
      revision: fc.integer({ min: 1, max: 4 }),
      kind: fc.constantFrom('publish' as const, 'unpublish' as const),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        async (steps, atOnce) => {
          const transcriptId = `property-${run++}`;
          const items: OutboxItem[] = steps.map(({ revision, kind }) =>
            kind === 'publish'
              ? publishing(transcriptId, revision)
              : { kind: 'unpublish', transcriptId, revision },
          );
          if (atOnce) await Promise.all(items.map((each) => archive.apply(each)));
          else for (const each of items) await archive.apply(each);
          // At one revision, an unpublish is ordered after the publish it withdraws.
          const last = steps.reduce((highest, step) =>
            step.revision > highest.revision ||
            (step.revision === highest.revision && step.kind === 'unpublish')
              ? step
              : highest,
          );
          const state = await archivedState(server(), 'ana', transcriptId);
          if (last.kind === 'unpublish') expect(state).toBeNull();
          else
            expect(state).toEqual({
              revision: last.revision,
              title: `Harbour interview, revision ${last.revision}`,
              sentences: last.revision + 1,
              highlights: [`from revision ${last.revision}`],
            });
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('NewsroomArchive audio', () => {
  const recording = Buffer.from('a recording of the harbour master, in three chunks');
  const audio = {
    byteLength: recording.byteLength,
    sha256: createHash('sha256').update(recording).digest('hex'),
    mimeType: 'audio/mpeg',
  };
  const chunks = [recording.subarray(0, 20), recording.subarray(20, 40), recording.subarray(40)];
  /** Stores one chunk of a transcript's audio, as the sender puts it. */
  const sendChunk = (
    transcriptId: string,
    revision: number,
    clip: AudioClip,
    chunkIndex: number,
    bytes: AudioChunk['bytes'],
  ) => archive.putAudioChunk({ transcriptId, revision, clip, chunkIndex, bytes });

  it('stores chunks resumably: progress names those stored, resending one changes nothing, and the same recording carries over to the next revision', async () => {
    await archive.apply({ kind: 'publish', publication: samplePublication('sound', 1, { audio }) });
    await sendChunk('sound', 1, 'recording', 0, chunks[0]!);
    await sendChunk('sound', 1, 'recording', 2, chunks[2]!);
    await sendChunk('sound', 1, 'recording', 2, chunks[2]!);
    await sendChunk('sound', 1, { highlight: 0 }, 0, chunks[1]!);
    expect(await archive.audioProgress('sound', 1, 'recording')).toEqual({
      chunkIndexes: [0, 2],
      bytes: chunks[0]!.byteLength + chunks[2]!.byteLength,
    });
    await sendChunk('sound', 1, 'recording', 1, chunks[1]!);
    await archive.apply({ kind: 'publish', publication: samplePublication('sound', 2, { audio }) });
    expect(await archive.audioProgress('sound', 2, 'recording')).toEqual({
      chunkIndexes: [0, 1, 2],
      bytes: recording.byteLength,
    });
    // A highlight's sound goes with each revision's highlights: the client sends it again.
    expect(await archive.audioProgress('sound', 2, { highlight: 0 })).toEqual({ chunkIndexes: [], bytes: 0 });
    const stored = await server().pool.query<{ bytes: Buffer }>(
      "SELECT bytes FROM verbatim.published_audio_chunks WHERE transcript_id = 'sound' ORDER BY chunk_index",
    );
    expect(Buffer.concat(stored.rows.map((row) => row.bytes))).toEqual(recording);
    // A chunk of an older revision arriving late is ignored; one of a revision not published is refused.
    await sendChunk('sound', 1, 'recording', 3, chunks[0]!);
    expect(await archive.audioProgress('sound', 1, 'recording')).toEqual({ chunkIndexes: [], bytes: 0 });
    await expect(sendChunk('sound', 3, 'recording', 0, chunks[0]!)).rejects.toThrow(
      "Revision 3 of this transcript is not in the newsroom's archive, so its audio cannot be stored: publish it first, then send its audio.",
    );
  });

  it('audio beyond the size the newsroom sets is refused in words, whether announced or sent', async () => {
    await server().pool.query('UPDATE verbatim.archive_settings SET max_audio_bytes = 30');
    try {
      const refusal =
        "This transcript's audio is larger than the 0 MB the newsroom takes for one transcript: publish it without its recording, or ask your newsroom's administrator to raise the limit.";
      await expect(
        archive.apply({ kind: 'publish', publication: samplePublication('loud', 1, { audio }) }),
      ).rejects.toThrow(refusal);
      await archive.apply({ kind: 'publish', publication: samplePublication('loud', 1) });
      await sendChunk('loud', 1, { highlight: 0 }, 0, chunks[0]!);
      await expect(sendChunk('loud', 1, { highlight: 0 }, 1, chunks[1]!)).rejects.toMatchObject({
        code: 'invalid_input',
        message: refusal,
      });
    } finally {
      await server().pool.query('UPDATE verbatim.archive_settings SET max_audio_bytes = DEFAULT');
    }
  });

  it('a newsroom that cannot be reached is a network error, so the sender tries again later', async () => {
    const { NewsroomConnection } = await import('./newsroom-connection');
    const { freePort } = await import('../../../../scripts/newsroom/local-postgres');
    const nowhere = new NewsroomConnection({ ...server().admin, user: 'ana', port: await freePort() }, 'x');
    try {
      const refusal = await new NewsroomArchive(nowhere)
        .apply(publishing('offline', 1))
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(VerbatimError);
      expect(refusal).toMatchObject({ code: 'network' });
    } finally {
      await nowhere.close();
    }
  });
});
