import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmulatorApp } from '../types';
import { UnreadableAudioError, decodeAudio, redactedAudio, transcribeAudio } from '../speech/index';
import { AudioDownloadError, loadAudio, transcodingFailedMessage } from './audio-source';
import { withServiceDefaults } from './request-validation';
import type { TranscriptionState, TranscriptRecord } from './transcription-state';
import { deliverWebhook } from './webhook-delivery';

/** How long a new transcript waits in the queue (emulated ms) before processing starts. */
const QUEUED_MS = 1000;
/** Processing takes about a quarter of the audio's length, and at least a second (emulated). */
const PROCESSING_SHARE_OF_AUDIO = 0.25;
const MIN_PROCESSING_MS = 1000;

type Result =
  | { status: 'completed'; fields: Record<string, unknown>; redactedAudioPath: string | undefined }
  | { status: 'error'; error: string };

/**
 * The status machine: queued → processing → completed | error, on the emulator's clock.
 * The audio is fetched and run through the speech engine when processing starts; the
 * outcome becomes visible once the processing time has passed, then the webhook goes out.
 */
export function startProcessing(app: EmulatorApp, state: TranscriptionState, record: TranscriptRecord): void {
  const signal = state.signal;
  state.after(QUEUED_MS, () => {
    record.status = 'processing';
    void transcribe(app, state, record, signal).then(({ result, audioMs }) => {
      if (signal.aborted) return;
      const processingMs = Math.max(MIN_PROCESSING_MS, audioMs * PROCESSING_SHARE_OF_AUDIO);
      state.after(processingMs, () => finish(app, state, record, result));
    });
  });
}

function finish(app: EmulatorApp, state: TranscriptionState, record: TranscriptRecord, result: Result): void {
  record.completedAt = app.clock.now();
  if (result.status === 'completed') {
    record.status = 'completed';
    record.fields = result.fields;
    record.redactedAudioPath = result.redactedAudioPath;
  } else {
    record.status = 'error';
    record.error = result.error;
  }
  void deliverWebhook(state, record);
}

async function transcribe(
  app: EmulatorApp,
  state: TranscriptionState,
  record: TranscriptRecord,
  signal: AbortSignal,
): Promise<{ result: Result; audioMs: number }> {
  let bytes: Uint8Array;
  try {
    bytes = await loadAudio(app, state, record.region, record.params.audio_url, signal);
  } catch (error) {
    return { result: { status: 'error', error: failureMessage(error) }, audioMs: 0 };
  }
  try {
    const decoded = decodeAudio(bytes);
    const request = withServiceDefaults(record.params);
    const outcome = transcribeAudio(bytes, request);
    if (outcome.status === 'error') return { result: outcome, audioMs: decoded.durationMs };
    const fields = outcome.fields;
    let redactedAudioPath: string | undefined;
    if (record.params.redact_pii_audio && !signal.aborted) {
      redactedAudioPath = join(state.directory(record.region, 'redacted-audio'), `${record.id}.wav`);
      writeFileSync(redactedAudioPath, redactedAudio(bytes, fields, request));
    }
    return { result: { status: 'completed', fields, redactedAudioPath }, audioMs: decoded.durationMs };
  } catch (error) {
    if (error instanceof UnreadableAudioError) {
      return { result: { status: 'error', error: transcodingFailedMessage(bytes) }, audioMs: 0 };
    }
    return { result: { status: 'error', error: failureMessage(error) }, audioMs: 0 };
  }
}

function failureMessage(error: unknown): string {
  if (error instanceof AudioDownloadError) return error.message;
  // The engine failing unexpectedly still ends the transcript, as the real service's internal errors do.
  return `Internal error while transcribing: ${error instanceof Error ? error.message : String(error)}`;
}
