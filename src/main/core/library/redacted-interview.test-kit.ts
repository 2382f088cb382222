import { readFixture } from '../../../../test/emulator/speech/test-audio';
import {
  paragraphsOf,
  redactedAudio,
  sentencesOf,
  transcribeAudio,
} from '../../../../test/emulator/speech/index';
import { transcriptRequestSchema } from '../../../../test/emulator/transcription/request-validation';
import { transcriptResource } from '../../../../test/emulator/transcription/transcript-resource';
import type { CompletedTranscript, Library } from './library';

/**
 * Test support: the emulator's interview recording transcribed as a journalist protecting a
 * source would ask (the phone number and email redacted, the unredacted words kept, entities
 * and key phrases on), in the very resource, sentences and paragraphs the service returns, so
 * every surface's test reads what the scheduler would have stored. No network: the emulator's
 * speech engine runs in the test's process.
 */

/** The details said in the recording (test/fixtures/manifest.json) that redaction hides. */
export const interviewPii = { phone: '555-0142', email: 'mayor@porthollow.gov' } as const;

export const redactedInterviewOptions = {
  speaker_labels: true,
  entity_detection: true,
  auto_highlights: true,
  sentiment_analysis: true,
  content_safety: true,
  redact_pii: true,
  redact_pii_policies: ['phone_number', 'email_address'],
  redact_pii_sub: 'entity_name',
  redact_pii_return_unredacted: true,
} as const;

function transcribedInterview(options: Record<string, unknown>) {
  const params = transcriptRequestSchema.parse({
    audio_url: 'https://uploads.example/interview-ferry-contract.wav',
    ...redactedInterviewOptions,
    ...options,
  });
  const bytes = readFixture('interview-ferry-contract').bytes;
  const outcome = transcribeAudio(bytes, params);
  if (outcome.status !== 'completed') throw new Error(outcome.error);
  return { params, bytes, outcome };
}

/** The recording the service makes with redact_pii_audio: a beep (or silence) over each redacted word. */
export function redactedInterviewRecording(options: Record<string, unknown> = {}): Uint8Array {
  const { params, bytes, outcome } = transcribedInterview(options);
  return redactedAudio(bytes, outcome.fields, params);
}

export function redactedInterview(options: Record<string, unknown> = {}): CompletedTranscript {
  const { params, outcome } = transcribedInterview(options);
  const transcript = transcriptResource({
    id: 'remote-redacted-interview',
    region: 'us',
    sequence: 1,
    createdAt: 0,
    completedAt: 0,
    params,
    status: 'completed',
    error: undefined,
    fields: outcome.fields,
    deleted: false,
    webhookStatusCode: undefined,
    redactedAudioPath: undefined,
  });
  return {
    transcript,
    sentences: sentencesOf(outcome.fields, params),
    paragraphs: paragraphsOf(outcome.fields, params),
  };
}

/** Stores the redacted interview as a finished transcript, its speakers named as a reporter would. */
export async function storeRedactedInterview(
  library: Library,
  id: string,
  options: Record<string, unknown> = {},
): Promise<void> {
  await library.createJob({
    id,
    title: 'Interview with the mayor',
    sourceKind: 'file',
    source: `/home/reporter/${id}.wav`,
    audioPath: null,
    region: 'us',
    options: { ...redactedInterviewOptions, ...options },
    status: 'fetching',
  });
  await library.saveCompleted(id, redactedInterview(options));
  await library.renameSpeaker(id, 'A', 'Daniel Reyes');
  await library.renameSpeaker(id, 'B', 'Mayor Elena Alvarez');
}
