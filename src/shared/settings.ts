import { z } from 'zod';
import { exportFormatSchema, exportOptionsSchema } from './export-options';
import { askTemplateSchema, defaultAskTemplates } from './ask';
import { chordSchema, keyBindingsSchema } from './keymap';
import { boundedJson, serviceAddressSchema } from './web-address';

export const themeSchema = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof themeSchema>;

export const videoPaneSizeSchema = z.enum(['large', 'small', 'hidden']);
export type VideoPaneSize = z.infer<typeof videoPaneSizeSchema>;

/**
 * User settings as stored by main. Secrets are deliberately absent: API keys live in the
 * platform key store and the renderer only ever learns whether one is set.
 */
const serviceUrlSchema = serviceAddressSchema();
/** The voice agent is reached over a WebSocket; its address may also be given as ws(s)://. */
const voiceServiceUrlSchema = serviceAddressSchema(['https:', 'http:', 'wss:', 'ws:']);
/** Transcription options as stored: a preset is a handful of fields, never megabytes. */
const storedOptionsSchema = boundedJson(z.record(z.string(), z.unknown()), {
  maxBytes: 64 * 1024,
  maxDepth: 8,
});

export const settingsSchema = z.object({
  theme: themeSchema.default('system'),
  reduceMotion: z.boolean().default(false),
  /** Where recordings are processed: the service's US or EU region. */
  region: z.enum(['us', 'eu']).default('us'),
  /** Overrides of the services' addresses ('' = the real service). */
  transcriptionUrlUs: serviceUrlSchema.default(''),
  transcriptionUrlEu: serviceUrlSchema.default(''),
  /** The model catalog's host: the EU host lists only models served in the EU. */
  catalogRegion: z.enum(['us', 'eu']).default('us'),
  /** Override of the catalog's address ('' = the real host of catalogRegion). */
  catalogUrl: serviceUrlSchema.default(''),
  /**
   * The language model that answers questions about a transcript (Ask). Chosen in Settings or
   * with "Use for Ask" in the Catalog; a catalog id such as `anthropic/claude-sonnet-4.5`.
   */
  askModel: z.string().min(1).max(200).default('anthropic/claude-sonnet-4.5'),
  /**
   * The export options last used for each format: the export dialog opens with them and saving
   * an export writes them (never the excerpt's range, which belongs to one export).
   */
  exportOptions: z.partialRecord(exportFormatSchema, exportOptionsSchema).default({}),
  /** The language-model gateway's address ('' = AssemblyAI's, in the chosen region). */
  gatewayUrl: serviceUrlSchema.default(''),
  /** Models Ask tries in order when the chosen one fails. */
  askFallbackModels: z.array(z.string().trim().min(1).max(200)).max(6).default([]),
  /** Ready-made asks (summary, key quotes, claims…), editable in the reader. */
  askTemplates: z
    .array(askTemplateSchema)
    .max(30)
    .refine((templates) => new Set(templates.map((t) => t.id)).size === templates.length, {
      message: 'Two ready-made asks have the same id.',
    })
    .default(defaultAskTemplates),
  /** Overrides the voice assistant's address ('' = AssemblyAI's voice agent). */
  voiceUrl: voiceServiceUrlSchema.default(''),
  /** How the voice assistant sounds, listens and which audio devices it uses. */
  voicePreferences: z
    .object({
      voice: z.string().min(1).max(100).default('default'),
      volume: z.number().min(0).max(100).default(80),
      vadThreshold: z.number().min(0).max(1).default(0.02),
      greeting: z.string().max(500).default('Hello. What are you looking for?'),
      mode: z.enum(['hands-free', 'push-to-talk']).default('hands-free'),
      headphones: z.boolean().default(false),
      inputDeviceId: z.number().int().nullable().default(null),
      outputDeviceId: z.number().int().nullable().default(null),
    })
    .default({
      voice: 'default',
      volume: 80,
      vadThreshold: 0.02,
      greeting: 'Hello. What are you looking for?',
      mode: 'hands-free',
      headphones: false,
      inputDeviceId: null,
      outputDeviceId: null,
    }),
  /**
   * Transcribing with the keyboard. The key that plays and pauses while the caret stays in the
   * text, as a chord like "Escape", "F4" or "Ctrl+Alt+P" (the renderer refuses keys that would
   * break typing before saving one).
   */
  playPauseKey: chordSchema.default('Escape'),
  /** The journalist's own keyboard shortcuts, by command (shared/keymap.ts); absent: the defaults. */
  keyBindings: keyBindingsSchema.default({}),
  /** How far resuming with the play/pause key goes back, so the last words are heard again. */
  rewindOnResumeSeconds: z.number().min(0).max(10).default(2),
  /** How big the reader shows a video recording's picture (issue #33); its sound plays either way. */
  videoPane: videoPaneSizeSchema.default('large'),
  /** Typing in the transcript pauses the recording. */
  autoPauseWhileTyping: z.boolean().default(true),
  /**
   * The newsroom archive's address, `postgres://user@host:port/database` ('' = none), checked by
   * main when it is set; its password is kept in the key store, never here (issue #35).
   */
  newsroomAddress: z.string().max(2048).default(''),
  /** Transcription options every new job starts from (checked when a job is created). */
  defaultOptions: storedOptionsSchema.default({ speaker_labels: true }),
  /** Named sets of options, for the kinds of recording a reporter makes again and again. */
  presets: z
    .array(z.object({ name: z.string().min(1).max(80), options: storedOptionsSchema }))
    .max(50)
    .default([
      {
        name: 'Two-person interview',
        options: {
          speaker_labels: true,
          speakers_expected: 2,
          entity_detection: true,
          auto_highlights: true,
        },
      },
      {
        name: 'Press conference',
        options: {
          speaker_labels: true,
          entity_detection: true,
          auto_highlights: true,
          iab_categories: true,
        },
      },
      { name: 'Phone call', options: { speaker_labels: true, speakers_expected: 2 } },
    ]),
});
export type Settings = z.infer<typeof settingsSchema>;

/**
 * A change to some settings. Built from the fields without their defaults: zod applies a
 * default even inside `.partial()`, which would reset every setting a patch leaves out.
 */
export const settingsPatchSchema = z
  .object(
    Object.fromEntries(
      Object.entries(settingsSchema.shape).map(([key, field]) => [key, field.removeDefault().optional()]),
    ) as {
      [K in keyof typeof settingsSchema.shape]: z.ZodOptional<
        ReturnType<(typeof settingsSchema.shape)[K]['removeDefault']>
      >;
    },
  )
  .strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const defaultSettings: Settings = settingsSchema.parse({});
