import { z } from 'zod';
import {
  recorderStatusSchema,
  recordingChoiceSchema,
  recordingDeviceSchema,
  recordingMarkNoteMaxLength,
  recordingMarkSchema,
  recordingSchema,
} from '../recording';

/**
 * Recording interviews (issue #23): the recorder's methods and events, spread into the one
 * contract. A recording is registered in the library the moment it starts; its marked moments
 * become highlights once it is transcribed.
 */

export const recorderContract = {
  'recorder.devices': { input: z.undefined(), output: z.array(recordingDeviceSchema) },
  'recorder.status': { input: z.undefined(), output: recorderStatusSchema },
  'recorder.start': { input: recordingChoiceSchema, output: recorderStatusSchema },
  'recorder.pause': { input: z.undefined(), output: recorderStatusSchema },
  'recorder.resume': { input: z.undefined(), output: recorderStatusSchema },
  'recorder.stop': { input: z.undefined(), output: recorderStatusSchema },
  'recorder.mark': {
    input: z.object({ note: z.string().trim().max(recordingMarkNoteMaxLength).default('') }).strict(),
    output: recordingMarkSchema,
  },
  'recorder.noteMark': {
    input: z
      .object({ id: z.number().int(), note: z.string().trim().max(recordingMarkNoteMaxLength) })
      .strict(),
    output: recordingMarkSchema,
  },
  /** Bytes free on the disk recordings are written to: the Record view says how long it lasts. */
  'recorder.freeSpace': { input: z.undefined(), output: z.object({ freeBytes: z.number().nonnegative() }) },
  'recordings.list': { input: z.undefined(), output: z.array(recordingSchema) },
  /**
   * Sends a finished recording to be transcribed with a preset of the settings (by name): the
   * library has it at once, audio playable; a stereo recording is transcribed one speaker per
   * channel. Answers the transcript's id.
   */
  'recordings.transcribe': {
    input: z
      .object({
        id: z.number().int(),
        preset: z.string().min(1).max(80),
        title: z.string().max(200).optional(),
      })
      .strict(),
    output: z.object({ transcriptId: z.string() }),
  },
} as const;

export const recorderEvents = {
  'recorder.status': recorderStatusSchema,
  'recorder.level': z.object({ rms: z.number(), peak: z.number() }),
} as const;
