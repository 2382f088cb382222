import { z } from 'zod';

/** A recording, its devices, marks and the recorder's state: what the recorder and the library share. */

export const recordingSchema = z.object({
  id: z.number().int(),
  path: z.string(),
  startedAt: z.number().int(),
  endedAt: z.number().int().nullable(),
  sampleRate: z.number().int(),
  channels: z.number().int(),
  status: z.enum(['recording', 'finished', 'recovered', 'missing']),
  durationMs: z.number().int(),
  /** The process writing it (while `recording`): the app, or the command line's recorder. */
  processId: z.number().int(),
  transcriptId: z.string().nullable(),
});
export type Recording = z.infer<typeof recordingSchema>;

/** The rates a recording is made at: the studio's, the CD's, and the telephone's (small files). */
export const recordingRates = [48_000, 44_100, 16_000] as const;

export const recordingDeviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Input channels: 2 or more allows stereo. */
  inputs: z.number().int(),
  defaultSampleRate: z.number(),
  /** The rates it is offered at, best first. */
  sampleRates: z.array(z.number().int()),
  isDefault: z.boolean(),
});
export type RecordingDevice = z.infer<typeof recordingDeviceSchema>;

export const recordingChoiceSchema = z
  .object({
    /** null: the system's default input. */
    deviceId: z.number().int().nullable(),
    /** 2: one speaker per channel (a phone adapter); transcribed with the multichannel option. */
    channels: z.union([z.literal(1), z.literal(2)]),
    sampleRate: z.union(recordingRates.map((rate) => z.literal(rate))),
  })
  .strict();
export type RecordingChoice = z.infer<typeof recordingChoiceSchema>;

export const recordingMarkNoteMaxLength = 200;
export const recordingMarkSchema = z.object({
  id: z.number().int(),
  recordingId: z.number().int(),
  /** Where in the recorded sound (pauses leave nothing), in milliseconds. */
  atMs: z.number().int(),
  note: z.string(),
  /** Handled once the transcript exists: a highlight made (`highlightId`) or nothing said there. */
  placed: z.boolean(),
  highlightId: z.number().int().nullable(),
});
export type RecordingMark = z.infer<typeof recordingMarkSchema>;

export const recorderWarningSchema = z.enum(['silence', 'clipping', 'low-disk']);
export type RecorderWarning = z.infer<typeof recorderWarningSchema>;

export const recorderStatusSchema = z.object({
  state: z.enum(['idle', 'recording', 'paused']),
  /** Why nothing can be recorded here (no sound system); absent when it can. */
  unavailable: z.string().optional(),
  /** The recording being made, or the last one made since the app started. */
  recording: recordingSchema.nullable(),
  deviceName: z.string().nullable(),
  elapsedMs: z.number().int(),
  marks: z.array(recordingMarkSchema),
  warnings: z.array(z.object({ kind: recorderWarningSchema, message: z.string() })),
  /** How the last recording ended when it was not stopped by the journalist. */
  ended: z
    .object({ reason: z.enum(['stopped', 'device-lost', 'write-failed']), message: z.string() })
    .nullable(),
  /** Who holds the microphone: one capture at a time. */
  microphoneHeldBy: z.enum(['recorder', 'assistant']).nullable(),
});
export type RecorderStatus = z.infer<typeof recorderStatusSchema>;
