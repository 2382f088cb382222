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
   * A page shows (`watching`) or leaves a newsroom search: while any page watches, main listens to
   * the archive and pushes `newsroom.changed`. `watcher` names the page (one per window).
   */
  'newsroom.watch': {
    input: z.object({ watcher: z.string().min(1).max(100), watching: z.boolean() }).strict(),
    output: z.object({ watching: z.boolean() }),
  },
} as const;

export const newsroomEvents = {
  /** The archive changed (a colleague published, republished or unpublished): search again. */
  'newsroom.changed': z.object({}),
} as const;
