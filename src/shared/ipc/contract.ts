import { z } from 'zod';
import { settingsPatchSchema, settingsSchema } from '../settings';
import { boundedJson, recordingUrlSchema } from '../web-address';
import {
  regionSchema,
  searchPageSchema,
  searchRequestSchema,
  segmentSchema,
  transcriptSummarySchema,
  jobStatusSchema,
  titleMaxLength,
} from '../library';
import { exportContract, exportEvents } from './export-contract';
import { secretKeyInputSchema, secretsStatusSchema } from '../secrets';
import { newsroomContract, newsroomEvents } from './newsroom-contract';
import { noticesContract, noticesEvents } from './notices-contract';
import { catalogContract, catalogEvents } from './catalog-contract';
import { askContract, askEvents } from './ask-contract';
import { voiceContract, voiceEvents } from './voice-contract';
import { recorderContract, recorderEvents } from './recorder-contract';
import { correctionsContract, correctionsEvents } from './corrections-contract';
import { correctionStateSchema } from '../corrections/corrections';
import { highlightsContract, highlightsEvents } from './highlights-contract';
import { storyExportContract } from './story-export-contract';
import { glossaryContract, glossaryEvents } from './glossary-contract';
import { storyReviewContract, storyReviewEvents } from './story-review-contract';
import { quotesOnDeleteSchema } from '../highlights';
import { serviceAddressesSchema } from '../service-addresses';

/**
 * The one IPC contract. Every method the renderer may call and every event main pushes is
 * declared here once, with zod schemas for what crosses the boundary. The preload, the
 * Electron main process and the web host are all typed from this object, so a method
 * without a handler or a bridge entry does not compile.
 */
const noInput = z.undefined();

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  /** Where the library, settings and encrypted keys live (VERBATIM_DATA_DIR moves it). */
  dataDir: z.string(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

const transcriptId = z.object({ id: z.string().min(1).max(100) }).strict();

export const jobSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file'), path: z.string().min(1).max(4096) }).strict(),
  z.object({ kind: z.literal('url'), url: recordingUrlSchema.pipe(z.string().max(4096)) }).strict(),
]);

export const createTranscriptionSchema = z
  .object({
    source: jobSourceSchema,
    title: z.string().max(titleMaxLength).optional(),
    /** Checked against the spec's limits by the scheduler, with messages naming each option. */
    options: boundedJson(z.record(z.string(), z.unknown()), { maxBytes: 256 * 1024, maxDepth: 8 }).default(
      {},
    ),
    region: regionSchema.optional(),
    /** The glossaries whose spellings it sends (issue #21); without it, those used by default. */
    glossaryIds: z.array(z.number().int().min(1)).max(100).optional(),
  })
  .strict();

export const transcriptDetailSchema = z.object({
  summary: transcriptSummarySchema,
  sentences: z.array(segmentSchema),
  /** Paragraph boundaries; their words are in the sentences. */
  paragraphs: z.array(segmentSchema),
  /** The service's transcript JSON (analyses, unredacted words…) without its word lists. */
  transcript: z.record(z.string(), z.unknown()).nullable(),
  /** Undo/redo and review state of the journalist's corrections. */
  corrections: correctionStateSchema,
});
export type TranscriptDetail = z.infer<typeof transcriptDetailSchema>;

/**
 * The start of a transcript: its summary, its first sentences and the paragraphs they fall in.
 * The reader paints its first screen from it while `transcripts.get` brings the whole (a 3-hour
 * transcript's answer is megabytes, and building and drawing it takes a few hundred ms more).
 * When those sentences are all of them (`complete`), main answers the whole transcript at once,
 * as `transcripts.get` would: a short transcript opens with one request.
 */
export const transcriptOpeningSchema = z.discriminatedUnion('complete', [
  z.object({
    summary: transcriptSummarySchema,
    sentences: z.array(segmentSchema),
    paragraphs: z.array(segmentSchema),
    complete: z.literal(false),
  }),
  transcriptDetailSchema.extend({ complete: z.literal(true) }),
]);
export type TranscriptOpening = z.infer<typeof transcriptOpeningSchema>;

export { secretsStatusSchema, type SecretsStatus } from '../secrets';

/**
 * A line for main's log file from the renderer (an error it caught, a warning). Main scrubs it
 * like every other line: no key and no transcript text is written, whatever the page sends.
 */
export const logWriteSchema = z
  .object({
    level: z.enum(['error', 'warn', 'info']),
    message: z.string().max(2000),
    details: z.string().max(20_000).optional(),
  })
  .strict();
export type LogWrite = z.infer<typeof logWriteSchema>;

export const contract = {
  ...catalogContract,
  'app.info': { input: noInput, output: appInfoSchema },
  'app.moveDataFolder': {
    input: z.object({ path: z.string().min(1, 'Enter a folder.').max(4096) }).strict(),
    output: z.object({ dataDir: z.string() }),
  },
  'app.relaunch': { input: noInput, output: z.object({ relaunching: z.boolean() }) },
  'settings.get': { input: noInput, output: settingsSchema },
  'settings.set': {
    input: settingsPatchSchema.extend({
      /** Servers the journalist agreed to send a stored key to (see key-destinations.ts). */
      sendKeysTo: z.array(z.string().max(2048)).max(5).optional(),
    }),
    output: settingsSchema,
  },
  /** The address each service in Settings is reached at, and where it comes from. */
  'settings.addresses': { input: noInput, output: serviceAddressesSchema },
  'transcripts.create': { input: createTranscriptionSchema, output: transcriptSummarySchema },
  'transcripts.cancel': { input: transcriptId, output: transcriptSummarySchema },
  'transcripts.retry': { input: transcriptId, output: transcriptSummarySchema },
  'transcripts.list': {
    input: z
      .object({
        status: jobStatusSchema.optional(),
        limit: z.number().int().min(1).max(1000).optional(),
        offset: z.number().int().min(0).optional(),
      })
      .strict()
      .default({}),
    output: z.array(transcriptSummarySchema),
  },
  'transcripts.get': { input: transcriptId, output: transcriptDetailSchema },
  'transcripts.opening': {
    input: z
      .object({ id: z.string().min(1).max(100), sentences: z.number().int().min(1).max(1000) })
      .strict(),
    output: transcriptOpeningSchema,
  },
  'transcripts.renameSpeaker': {
    input: z
      .object({ id: z.string().min(1), label: z.string().min(1).max(50), name: z.string().min(1).max(200) })
      .strict(),
    output: transcriptSummarySchema,
  },
  'transcripts.setTitle': {
    input: z.object({ id: z.string().min(1), title: z.string().min(1).max(titleMaxLength) }).strict(),
    output: transcriptSummarySchema,
  },
  'transcripts.setTags': {
    input: z.object({ id: z.string().min(1), tags: z.array(z.string().min(1).max(100)).max(50) }).strict(),
    output: transcriptSummarySchema,
  },
  'transcripts.delete': {
    input: z
      .object({
        id: z.string().min(1),
        remote: z.boolean().default(false),
        /** Its quotes in stories: kept as text by default, so nothing the journalist wrote is lost. */
        quotesInStories: quotesOnDeleteSchema.default('keep-as-text'),
      })
      .strict(),
    output: z.object({ deleted: z.string(), remote: z.boolean() }),
  },
  'transcripts.relink': {
    input: z.object({ id: z.string().min(1), path: z.string().min(1).max(4096) }).strict(),
    output: transcriptSummarySchema,
  },
  'library.search': { input: searchRequestSchema, output: searchPageSchema },
  'secrets.status': { input: noInput, output: secretsStatusSchema },
  'secrets.setTranscriptionKey': { input: secretKeyInputSchema, output: secretsStatusSchema },
  'secrets.clearTranscriptionKey': { input: noInput, output: secretsStatusSchema },
  'connection.test': {
    input: z.object({ region: regionSchema.optional() }).strict().default({}),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  'log.write': { input: logWriteSchema, output: z.object({}).strict() },
  ...exportContract,
  ...askContract,
  ...correctionsContract,
  ...voiceContract,
  ...highlightsContract,
  ...storyExportContract,
  ...glossaryContract,
  ...recorderContract,
  ...newsroomContract,
  ...noticesContract,
  ...storyReviewContract,
} as const satisfies Record<`${string}.${string}`, { input: z.ZodType; output: z.ZodType }>;

export const events = {
  ...catalogEvents,
  'settings.changed': settingsSchema,
  'job.updated': transcriptSummarySchema,
  'job.progress': z.object({ id: z.string(), bytesSent: z.number().int(), bytesTotal: z.number().int() }),
  /** The OS asked to show a transcript (its notification was clicked). */
  'app.openTranscript': z.object({ id: z.string().min(1).max(100) }),
  /** Recordings the OS opened with the app: they start a New transcription. */
  'app.openRecordings': z.object({
    recordings: z.array(z.object({ path: z.string(), name: z.string(), size: z.number() })).max(200),
    refused: z.array(z.object({ name: z.string(), message: z.string() })).max(200),
  }),
  ...exportEvents,
  ...askEvents,
  ...voiceEvents,
  ...correctionsEvents,
  ...highlightsEvents,
  ...glossaryEvents,
  ...recorderEvents,
  ...newsroomEvents,
  ...noticesEvents,
  ...storyReviewEvents,
} as const satisfies Record<`${string}.${string}`, z.ZodType>;

export type Contract = typeof contract;
export type MethodName = keyof Contract;
export type MethodInput<M extends MethodName> = z.input<Contract[M]['input']>;
export type MethodOutput<M extends MethodName> = z.output<Contract[M]['output']>;

export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

/** The runtime list the preload and the web bridge build `window.api` from. */
export const methodNames = Object.keys(contract) as MethodName[];
export const eventNames = Object.keys(events) as EventName[];

/** Main side: one handler per method; a missing one is a compile error. */
export type Handlers = {
  [M in MethodName]: (input: z.output<Contract[M]['input']>) => Promise<MethodOutput<M>>;
};
