import { z } from 'zod';
import { segmentSchema } from '../../../shared/library';

/**
 * What a reporter's app sends to the newsroom archive when it publishes a transcript (issue #35,
 * points 4 and 5): the contract between the local outbox, which stores it when the reporter
 * publishes, and the archive, which applies it. It is a snapshot taken at the moment of
 * publishing, so corrections made after it wait for the next publish, and it is made from what
 * an export shows: the redacted words only (never the service's unredacted copy) when the
 * transcript was redacted.
 *
 * The archive keys a transcript by its reporter (the login role that publishes it, taken from
 * the connection, never from the payload) and the library's transcript id; `revision` goes up by
 * one with each publish of that transcript, and (reporter, transcriptId, revision) is the
 * idempotency key: applying the same item twice changes nothing, and an older revision than the
 * one the archive holds is ignored.
 */

const millis = z.number().int().nonnegative();

export const publishedSpeakerSchema = z.object({
  label: z.string().min(1).max(100),
  /** The name the reporter gave the speaker, or null when it is still the service's label. */
  name: z.string().max(200).nullable(),
});

export const publishedHighlightSchema = z.object({
  startMs: millis,
  endMs: millis,
  label: z.string().max(100),
  note: z.string().max(2000),
  /** The quoted words as they read when published, for a glance without the sentences. */
  text: z.string(),
  speaker: z.string().nullable(),
});

export const publishedAudioSchema = z.object({
  /** The recording as published: redacted (the service's beeped copy) when the transcript was. */
  byteLength: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  mimeType: z.string().min(1).max(100),
});

export const publicationSchema = z.object({
  transcriptId: z.string().min(1).max(200),
  revision: z.number().int().positive(),
  desk: z.string().min(1).max(50),
  confidential: z.boolean(),
  title: z.string().max(500),
  /** When the interview was recorded (ms since the epoch), or when it was transcribed if unknown. */
  recordedAt: millis,
  languageCode: z.string().max(20).nullable(),
  durationMs: millis.nullable(),
  redacted: z.boolean(),
  speakers: z.array(publishedSpeakerSchema),
  tags: z.array(z.string().min(1).max(100)).max(200),
  /** The corrected sentences with their word timings, in order. */
  sentences: z.array(segmentSchema),
  highlights: z.array(publishedHighlightSchema),
  /**
   * Review stamps: the paragraphs the reporter checked against the audio, and when. Who checked
   * them is the login that publishes (the archive writes it beside each stamp as `checkedBy`),
   * never a name in the payload: nobody can publish a stamp in a colleague's name.
   */
  checkedParagraphs: z.array(z.object({ paragraph: z.number().int().nonnegative(), checkedAt: millis })),
  /**
   * The paragraphs' time spans, in order, which the stamps number: a copy kept from the newsroom
   * makes the same paragraphs from them. Absent in a publication queued before they travelled.
   */
  paragraphs: z.array(z.object({ startMs: millis, endMs: millis })).optional(),
  /** The whole recording goes only when asked for; each highlight's audio always goes with it. */
  audio: publishedAudioSchema.nullable(),
});
export type Publication = z.infer<typeof publicationSchema>;
export type PublishedHighlight = z.infer<typeof publishedHighlightSchema>;

/** One thing the outbox asks the archive to do. */
export const outboxItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('publish'), publication: publicationSchema }),
  z.object({
    kind: z.literal('unpublish'),
    transcriptId: z.string().min(1).max(200),
    /** Unpublishing is ordered after the publish of this revision, so a late publish cannot revive it. */
    revision: z.number().int().positive(),
  }),
]);
export type OutboxItem = z.infer<typeof outboxItemSchema>;

/**
 * The archive as the sender sees it: the I/O the outbox's sender takes as a parameter. Its
 * calls are idempotent; they throw a VerbatimError: 'network' or 'timeout' when the newsroom could
 * not be reached or did not answer (the sender tries again later, with backoff); any other code is
 * the item's own failure (refused, invalid), which the library shows beside the transcript.
 */
export interface NewsroomArchiveWriter {
  apply(item: OutboxItem): Promise<void>;
}
