import { redactedSpans } from './pii-redaction';
import { wordsOfFields } from './segmentation';
import type { TranscriptRequest } from './types';
import { decodeAudio } from './wav-decode';
import { encodeWavPcm16 } from './wav-encode';

/**
 * The redacted recording: every span of a redacted word is overwritten, in every channel, with a
 * 1 kHz beep (the real service's default) or with silence (override_audio_redaction_method:
 * 'silence'). Always 16-bit PCM WAV at the original rate and channel count; the real service encodes
 * mp3 or wav per redact_pii_audio_quality, but the emulator has no mp3 encoder.
 */

const BEEP_HZ = 1000;
/** Half of full scale: clearly audible, far from clipping. */
const BEEP_AMPLITUDE = 16384;

export function redactedAudio(
  bytes: Uint8Array,
  fields: Record<string, unknown>,
  request: TranscriptRequest,
): Uint8Array {
  const audio = decodeAudio(bytes);
  const options = (request.redact_pii_audio_options ?? {}) as { override_audio_redaction_method?: unknown };
  const silence = options.override_audio_redaction_method === 'silence';
  const channels = audio.channels.map((samples) => samples.slice());
  const frameCount = channels[0]?.length ?? 0;
  for (const span of redactedSpans(wordsOfFields(fields))) {
    const from = Math.max(0, Math.floor((span.start * audio.sampleRate) / 1000));
    const to = Math.min(frameCount, Math.ceil((span.end * audio.sampleRate) / 1000));
    for (const samples of channels) {
      for (let frame = from; frame < to; frame++) {
        samples[frame] = silence
          ? 0
          : Math.round(BEEP_AMPLITUDE * Math.sin((2 * Math.PI * BEEP_HZ * frame) / audio.sampleRate));
      }
    }
  }
  return encodeWavPcm16(audio.sampleRate, channels);
}
