import { z } from 'zod';
import {
  newsroomSearchPageSchema,
  newsroomSearchQuerySchema,
  newsroomTranscriptRefSchema,
  newsroomTranscriptSchema,
} from '../newsroom-search';

/**
 * The newsroom archive's part of the IPC contract (issue #35). The address is a setting; the
 * password goes to main's key store and never comes back: the renderer learns only whether one
 * is set.
 */
export const newsroomSettingsSchema = z.object({
  /** `postgres://user@host:port/database`, or '' when no newsroom is set. */
  address: z.string(),
  passwordSet: z.boolean(),
});
export type NewsroomSettings = z.infer<typeof newsroomSettingsSchema>;

const address = z.string().max(2048);
/** Byte for byte: a password may begin or end with a space, so it is never trimmed. */
const password = z.string().min(1, 'Enter the password.').max(1000);

/** Where a transcript stands with the newsroom archive (issue #35, point 5); none: local only. */
export const newsroomPublicationSchema = z.object({
  transcriptId: z.string(),
  desk: z.string(),
  confidential: z.boolean(),
  withAudio: z.boolean(),
  /** The revision of the last publish or unpublish the reporter asked for. */
  revisionRequested: z.number().int(),
  /** The revision the archive holds, or null when it holds none. */
  revisionPublished: z.number().int().nullable(),
  state: z.enum(['waiting', 'published', 'failed', 'unpublishing', 'unpublished']),
  /** Why the archive refused the last item, when failed. */
  error: z.string().nullable(),
  /** What of the audio asked for did not go with the publication, and why, in sentences; else null. */
  audioNote: z.string().nullable(),
  updatedAt: z.number(),
});
export type NewsroomPublication = z.infer<typeof newsroomPublicationSchema>;

/** The desks the reporter may publish to, or the sentence saying why they are not known now. */
export const newsroomDesksSchema = z.object({
  /** The reporter's login there, when the newsroom answered. */
  user: z.string().nullable(),
  desks: z.array(z.object({ desk: z.string(), role: z.enum(['editor', 'reporter']) })),
  /** Why no desk is listed (no newsroom set, unreachable, on no desk), or null. */
  message: z.string().nullable(),
  /** The desk this library published to last: what to offer while the newsroom cannot be asked. */
  lastDesk: z.string().nullable(),
});
export type NewsroomDesks = z.infer<typeof newsroomDesksSchema>;

/** What keeping a colleague's transcript in one's library did (issue #35, point 6). */
export const keptNewsroomCopySchema = z.object({
  /** The copy's id in the library, the same on every keep of that transcript. */
  id: z.string(),
  /** A new copy; false when the library had it (brought to a newer revision, or unchanged). */
  created: z.boolean(),
  /** An older copy was brought to the archive's newer revision. */
  updated: z.boolean(),
  /** The newsroom revision the copy holds. */
  revision: z.number().int(),
  /** Whether the copy has its recording (false when the colleague published without it). */
  hasAudio: z.boolean(),
});
export type KeptNewsroomCopy = z.infer<typeof keptNewsroomCopySchema>;

/** How far the recording of a transcript being kept has downloaded. */
export const newsroomKeepProgressSchema = newsroomTranscriptRefSchema.extend({
  bytes: z.number().int(),
  totalBytes: z.number().int(),
});
export type NewsroomKeepProgress = z.infer<typeof newsroomKeepProgressSchema>;

const transcriptIds = z.array(z.string().min(1).max(100)).min(1).max(1000);

export const newsroomContract = {
  'newsroom.settings': { input: z.undefined(), output: newsroomSettingsSchema },
  /** Stores the address ('' forgets the newsroom); a password is stored, `null` forgets it, absent keeps it. */
  'newsroom.setSettings': {
    input: z.object({ address, password: password.nullable().optional() }).strict(),
    output: newsroomSettingsSchema,
  },
  /** Connects with this address and the password given, or the stored one: who you are there, or why not. */
  'newsroom.check': {
    input: z.object({ address, password: password.optional() }).strict(),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  /** Searches the archive as the reporter set in Settings: row-level security decides what is found. */
  'newsroom.search': { input: newsroomSearchQuerySchema, output: newsroomSearchPageSchema },
  /** A published transcript whole; one the reporter may not see is 'not_found', as one that does not exist. */
  'newsroom.open': { input: newsroomTranscriptRefSchema, output: newsroomTranscriptSchema },
  /**
   * Saves a published transcript into the reporter's own library as a read-only copy, with its
   * recording when it was published with it ('newsroom.keepProgress' follows the download);
   * keeping it again brings the copy to a newer revision, or changes nothing.
   */
  'newsroom.keep': { input: newsroomTranscriptRefSchema, output: keptNewsroomCopySchema },
  /**
   * A page shows (`watching`) or leaves a newsroom search: while any page watches, main listens to
   * the archive and pushes `newsroom.changed`. `watcher` names the page (one per window).
   */
  'newsroom.watch': {
    input: z.object({ watcher: z.string().min(1).max(100), watching: z.boolean() }).strict(),
    output: z.object({ watching: z.boolean() }),
  },
  /**
   * Queues each transcript's next revision for the desk (offline first: it waits in the library
   * until the newsroom answers); a transcript that cannot be queued is refused with why.
   */
  'newsroom.publish': {
    input: z
      .object({
        ids: transcriptIds,
        desk: z.string().trim().min(1, 'Choose the desk to publish to.').max(200),
        confidential: z.boolean(),
        /** The whole recording too; each highlight's clip goes in any case. */
        withAudio: z.boolean().default(false),
      })
      .strict(),
    output: z.object({
      publications: z.array(newsroomPublicationSchema),
      refused: z.array(z.object({ id: z.string(), message: z.string() })),
    }),
  },
  /** Queues taking a published transcript out of the archive. */
  'newsroom.unpublish': {
    input: z.object({ id: z.string().min(1).max(100) }).strict(),
    output: newsroomPublicationSchema,
  },
  /** The reporter's desks, asked of the newsroom in Settings. */
  'newsroom.desks': { input: z.undefined(), output: newsroomDesksSchema },
  /** The publication states of these transcripts; one never published (local only) is absent. */
  'newsroom.publications': {
    input: z.object({ ids: z.array(z.string().min(1).max(100)).max(5000) }).strict(),
    output: z.array(newsroomPublicationSchema),
  },
} as const;

export const newsroomEvents = {
  /** The archive changed (a colleague published, republished or unpublished): search again. */
  'newsroom.changed': z.object({}),
  /** A transcript's publication changed (queued, published, failed, taken out). */
  'newsroom.publicationChanged': newsroomPublicationSchema,
  /** The recording of a transcript being kept downloads. */
  'newsroom.keepProgress': newsroomKeepProgressSchema,
};
