import { requireOwnDesk } from './newsroom-desks';
import type pg from 'pg';
import { z } from 'zod';
import { VerbatimError } from '../../../shared/errors';
import type { NewsroomConnection } from './newsroom-connection';
import {
  outboxItemSchema,
  type NewsroomArchiveWriter,
  type OutboxItem,
  type Publication,
} from './publication';

/**
 * The archive's side of publishing (issue #35, points 4, 5 and 8): applies what a reporter's
 * outbox sends, as that reporter. The reporter is always the connection's login role
 * (`current_user`), never a name in the payload, and row-level security (migration 003) holds
 * every write to it. Each item is applied in one transaction, under a lock on the transcript, so
 * the same item twice, an older revision after a newer one, or two of the reporter's processes
 * at once all end in the state of the highest revision; at one revision, an unpublish comes
 * after the publish it withdraws.
 */

/** Which sound a chunk belongs to: the whole recording, or the Nth highlight's quote. */
export type AudioClip = 'recording' | { highlight: number };

const audioClipSchema = z.union([
  z.literal('recording'),
  z.object({ highlight: z.number().int().nonnegative() }).strict(),
]);

export const audioChunkSchema = z.object({
  transcriptId: z.string().min(1).max(200),
  revision: z.number().int().positive(),
  clip: audioClipSchema,
  chunkIndex: z.number().int().nonnegative(),
  bytes: z.instanceof(Uint8Array).refine((bytes) => bytes.byteLength > 0, 'is empty'),
});
export type AudioChunk = z.infer<typeof audioChunkSchema>;

/** What the archive holds of one clip's audio: the chunks stored (in order) and their bytes. */
export interface AudioProgress {
  chunkIndexes: number[];
  bytes: number;
}

export class NewsroomArchive implements NewsroomArchiveWriter {
  constructor(private readonly newsroom: NewsroomConnection) {}

  async apply(item: OutboxItem): Promise<void> {
    const checked = validated(outboxItemSchema, item, 'publication');
    await this.inTranscriptTransaction(
      checked.kind === 'publish' ? checked.publication.transcriptId : checked.transcriptId,
      (client) =>
        checked.kind === 'publish'
          ? publish(client, checked.publication)
          : unpublish(client, checked.transcriptId, checked.revision),
    );
  }

  /**
   * Stores one chunk of a published revision's audio. A chunk stored already is kept as it is
   * (resending is harmless); a chunk of a revision older than the archive's is ignored, as its
   * publish would be.
   */
  async putAudioChunk(chunk: AudioChunk): Promise<void> {
    const checked = validated(audioChunkSchema, chunk, 'audio');
    await this.inTranscriptTransaction(checked.transcriptId, async (client) => {
      const stored = await storedRevision(client, checked.transcriptId);
      if (stored !== undefined && stored > checked.revision) return;
      if (stored !== checked.revision)
        throw new VerbatimError(
          'not_found',
          `Revision ${checked.revision} of this transcript is not in the newsroom's archive, so its audio cannot be stored: publish it first, then send its audio.`,
        );
      const limit = await maxAudioBytes(client);
      const used = await client.query<{ bytes: string }>(
        `SELECT coalesce(sum(octet_length(bytes)), 0) AS bytes FROM verbatim.published_audio_chunks
         WHERE reporter = current_user AND transcript_id = $1 AND revision = $2
           AND NOT (clip = $3 AND chunk_index = $4)`,
        [checked.transcriptId, checked.revision, clipKey(checked.clip), checked.chunkIndex],
      );
      if (Number(used.rows[0]?.bytes ?? 0) + checked.bytes.byteLength > limit) throw tooMuchAudio(limit);
      await client.query(
        `INSERT INTO verbatim.published_audio_chunks (reporter, transcript_id, revision, clip, chunk_index, bytes)
         VALUES (current_user, $1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
        [
          checked.transcriptId,
          checked.revision,
          clipKey(checked.clip),
          checked.chunkIndex,
          Buffer.from(checked.bytes),
        ],
      );
    });
  }

  /** The chunks of a clip the archive holds, so an interrupted upload sends only the rest. */
  async audioProgress(transcriptId: string, revision: number, clip: AudioClip): Promise<AudioProgress> {
    const checked = validated(
      audioChunkSchema.pick({ transcriptId: true, revision: true, clip: true }),
      { transcriptId, revision, clip },
      'audio',
    );
    const rows = await this.newsroom.query<{ chunk_index: number; bytes: number }>(
      `SELECT chunk_index, octet_length(bytes) AS bytes FROM verbatim.published_audio_chunks
       WHERE reporter = current_user AND transcript_id = $1 AND revision = $2 AND clip = $3
       ORDER BY chunk_index`,
      [checked.transcriptId, checked.revision, clipKey(checked.clip)],
    );
    return {
      chunkIndexes: rows.map((row) => row.chunk_index),
      bytes: rows.reduce((sum, row) => sum + row.bytes, 0),
    };
  }

  /**
   * The checksum and length of a clip's audio as the archive holds it, read back as the
   * reporter (under row-level security), so the sender can check it against what it published.
   */
  async audioDigest(
    transcriptId: string,
    revision: number,
    clip: AudioClip,
  ): Promise<{ sha256: string | null; bytes: number }> {
    const checked = validated(
      audioChunkSchema.pick({ transcriptId: true, revision: true, clip: true }),
      { transcriptId, revision, clip },
      'audio',
    );
    const rows = await this.newsroom.query<{ sha256: string | null; bytes: string }>(
      `SELECT encode(sha256(string_agg(bytes, ''::bytea ORDER BY chunk_index)), 'hex') AS sha256,
              coalesce(sum(octet_length(bytes)), 0) AS bytes
       FROM verbatim.published_audio_chunks
       WHERE reporter = current_user AND transcript_id = $1 AND revision = $2 AND clip = $3`,
      [checked.transcriptId, checked.revision, clipKey(checked.clip)],
    );
    return { sha256: rows[0]?.sha256 ?? null, bytes: Number(rows[0]?.bytes ?? 0) };
  }

  private inTranscriptTransaction(
    transcriptId: string,
    work: (client: pg.PoolClient) => Promise<void>,
  ): Promise<void> {
    return this.newsroom.withClient(async (client) => {
      await client.query('BEGIN');
      try {
        // One writer per transcript of this reporter at a time: the revision read below is the
        // one the write replaces. Two keys: a lock space apart from the migrations' one.
        await client.query('SELECT pg_advisory_xact_lock(hashtext(current_user), hashtext($1))', [
          transcriptId,
        ]);
        await work(client);
        await client.query('COMMIT');
      } catch (error) {
        // The failure that matters is `error`; a rollback on a connection that is gone fails too,
        // and the connection is dropped with it (NewsroomConnection.withClient).
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }
}

async function publish(client: pg.PoolClient, publication: Publication): Promise<void> {
  const { transcriptId, revision } = publication;
  const withdrawn = await client.query<{ revision: number }>(
    'SELECT revision FROM verbatim.withdrawn_transcripts WHERE reporter = current_user AND transcript_id = $1',
    [transcriptId],
  );
  if ((withdrawn.rows[0]?.revision ?? 0) >= revision) return;
  const previous = await client.query<{ revision: number; audio_sha256: string | null }>(
    `SELECT revision, audio_sha256 FROM verbatim.published_transcripts
     WHERE reporter = current_user AND transcript_id = $1`,
    [transcriptId],
  );
  const stored = previous.rows[0];
  if (stored !== undefined && stored.revision >= revision) return;
  // The desk must exist and have the reporter on it; row-level security refuses it too, without the words.
  await requireOwnDesk(client, publication.desk, {
    missing: "publish to one of your desks, or ask your newsroom's administrator to create it.",
    notMember:
      "so you cannot publish to it: publish to one of your desks, or ask your newsroom's administrator to add you.",
  });
  if (publication.audio !== null) {
    const limit = await maxAudioBytes(client);
    if (publication.audio.byteLength > limit) throw tooMuchAudio(limit);
  }
  await client.query(
    `INSERT INTO verbatim.published_transcripts (reporter, transcript_id, desk, confidential, revision,
       title, recorded_at, language, duration_ms, redacted, speakers, tags, checked_paragraphs,
       paragraphs, audio_bytes, audio_sha256, audio_mime_type)
     VALUES (current_user, $1, $2, $3, $4, $5, to_timestamp($6::double precision / 1000), $7, $8, $9,
       $10::jsonb, $11::text[],
       -- Who checked each paragraph is the login publishing it, written here, never read from the payload.
       (SELECT coalesce(jsonb_agg(s.stamp || jsonb_build_object('checkedBy', current_user::text) ORDER BY s.n), '[]')
          FROM jsonb_array_elements($12::jsonb) WITH ORDINALITY AS s (stamp, n)),
       $16::jsonb, $13, $14, $15)
     ON CONFLICT (reporter, transcript_id) DO UPDATE SET
       desk = excluded.desk, confidential = excluded.confidential, revision = excluded.revision,
       title = excluded.title, recorded_at = excluded.recorded_at, language = excluded.language,
       duration_ms = excluded.duration_ms, redacted = excluded.redacted, speakers = excluded.speakers,
       tags = excluded.tags, checked_paragraphs = excluded.checked_paragraphs, paragraphs = excluded.paragraphs,
       audio_bytes = excluded.audio_bytes, audio_sha256 = excluded.audio_sha256,
       audio_mime_type = excluded.audio_mime_type, updated_at = now()`,
    [
      transcriptId,
      publication.desk,
      publication.confidential,
      revision,
      publication.title,
      publication.recordedAt,
      publication.languageCode,
      publication.durationMs,
      publication.redacted,
      JSON.stringify(publication.speakers),
      publication.tags,
      JSON.stringify(publication.checkedParagraphs),
      publication.audio?.byteLength ?? null,
      publication.audio?.sha256 ?? null,
      publication.audio?.mimeType ?? null,
      publication.paragraphs === undefined ? null : JSON.stringify(publication.paragraphs),
    ],
  );
  await client.query(
    'DELETE FROM verbatim.withdrawn_transcripts WHERE reporter = current_user AND transcript_id = $1',
    [transcriptId],
  );
  // The same recording (by its checksum) is not sent again: its chunks move to the new revision.
  if (stored?.audio_sha256 != null && stored.audio_sha256 === publication.audio?.sha256)
    await client.query(
      `UPDATE verbatim.published_audio_chunks SET revision = $3
       WHERE reporter = current_user AND transcript_id = $1 AND revision = $2 AND clip = 'recording'`,
      [transcriptId, stored.revision, revision],
    );
  await client.query(
    `DELETE FROM verbatim.published_audio_chunks
     WHERE reporter = current_user AND transcript_id = $1 AND revision <> $2`,
    [transcriptId, revision],
  );
  await client.query(
    'DELETE FROM verbatim.published_sentences WHERE reporter = current_user AND transcript_id = $1',
    [transcriptId],
  );
  await client.query(
    `INSERT INTO verbatim.published_sentences
       (reporter, transcript_id, position, start_ms, end_ms, speaker, text, words)
     SELECT current_user, $1, s.position, s."startMs", s."endMs", s.speaker, s.text, s.words
     FROM jsonb_to_recordset($2::jsonb)
       AS s(position integer, "startMs" bigint, "endMs" bigint, speaker text, text text, words jsonb)`,
    [transcriptId, JSON.stringify(publication.sentences)],
  );
  await client.query(
    'DELETE FROM verbatim.published_highlights WHERE reporter = current_user AND transcript_id = $1',
    [transcriptId],
  );
  await client.query(
    `INSERT INTO verbatim.published_highlights
       (reporter, transcript_id, ordinal, start_ms, end_ms, label, note, text, speaker)
     SELECT current_user, $1, h.ordinal - 1, h."startMs", h."endMs", h.label, h.note, h.text, h.speaker
     FROM ROWS FROM (jsonb_to_recordset($2::jsonb)
       AS ("startMs" bigint, "endMs" bigint, label text, note text, text text, speaker text))
       WITH ORDINALITY AS h("startMs", "endMs", label, note, text, speaker, ordinal)`,
    [transcriptId, JSON.stringify(publication.highlights)],
  );
}

async function unpublish(client: pg.PoolClient, transcriptId: string, revision: number): Promise<void> {
  const stored = await storedRevision(client, transcriptId);
  if (stored !== undefined && stored > revision) return;
  await client.query(
    'DELETE FROM verbatim.published_transcripts WHERE reporter = current_user AND transcript_id = $1',
    [transcriptId],
  );
  await client.query(
    `INSERT INTO verbatim.withdrawn_transcripts (reporter, transcript_id, revision)
     VALUES (current_user, $1, $2)
     ON CONFLICT (reporter, transcript_id) DO UPDATE
       SET revision = greatest(withdrawn_transcripts.revision, excluded.revision), withdrawn_at = now()`,
    [transcriptId, revision],
  );
}

async function storedRevision(client: pg.PoolClient, transcriptId: string): Promise<number | undefined> {
  const found = await client.query<{ revision: number }>(
    'SELECT revision FROM verbatim.published_transcripts WHERE reporter = current_user AND transcript_id = $1',
    [transcriptId],
  );
  return found.rows[0]?.revision;
}

async function maxAudioBytes(client: pg.PoolClient): Promise<number> {
  const found = await client.query<{ max_audio_bytes: string }>(
    'SELECT max_audio_bytes FROM verbatim.archive_settings',
  );
  return Number(found.rows[0]?.max_audio_bytes ?? 0);
}

function tooMuchAudio(limit: number): VerbatimError {
  const megabytes = Math.floor(limit / 1_000_000).toLocaleString('en');
  return new VerbatimError(
    'invalid_input',
    `This transcript's audio is larger than the ${megabytes} MB the newsroom takes for one transcript: publish it without its recording, or ask your newsroom's administrator to raise the limit.`,
  );
}

function clipKey(clip: AudioClip): string {
  return clip === 'recording' ? 'recording' : `highlight ${clip.highlight}`;
}

/**
 * The item checked before any SQL: its schema, distinct sentence positions, and no NUL character
 * (PostgreSQL's text cannot hold one), so a malformed item fails whole, in words, touching nothing.
 */
function validated<T>(schema: z.ZodType<T>, value: unknown, what: 'publication' | 'audio'): T {
  const parsed = schema.safeParse(value);
  const problem = parsed.success ? problemOf(parsed.data) : describeIssue(parsed.error.issues[0]);
  if (problem === undefined && parsed.success) return parsed.data;
  throw new VerbatimError(
    'invalid_input',
    `The newsroom's archive cannot take this ${what === 'publication' ? 'publication' : 'audio'} (${problem}): publish the transcript again, and report it if it keeps happening.`,
  );
}

function problemOf(value: unknown): string | undefined {
  if (
    JSON.stringify(value, (_key, field: unknown) => (field instanceof Uint8Array ? null : field)).includes(
      '\\u0000',
    )
  )
    return 'it holds a NUL character';
  const sentences = (value as { publication?: Publication }).publication?.sentences;
  if (sentences && new Set(sentences.map((sentence) => sentence.position)).size !== sentences.length)
    return 'two sentences have the same position';
  return undefined;
}

function describeIssue(issue: z.ZodIssue | undefined): string {
  if (!issue) return 'it is malformed';
  const path = issue.path.join('.');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}
