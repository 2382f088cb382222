import { describe, expect, it } from 'vitest';
import { redactedAudio } from './redacted-audio';
import { transcriptFieldsSchema } from './spec-shapes';
import { readFixture } from './test-audio';
import { transcribeAudio } from './transcribe';
import type { TranscriptRequest, Word } from './types';
import { decodeAudio } from './wav-decode';

const interview = readFixture('interview-ferry-contract');
const stereo = readFixture('stereo-call');
const POLICIES = ['person_name', 'phone_number', 'email_address'];

function transcribe(bytes: Uint8Array, request: TranscriptRequest) {
  const outcome = transcribeAudio(bytes, request);
  if (outcome.status !== 'completed') throw new Error(outcome.error);
  return { raw: outcome.fields, fields: transcriptFieldsSchema.parse(outcome.fields) };
}

const plain = transcribe(interview.bytes, { speaker_labels: true }).fields;

describe('PII redaction of the transcript', () => {
  it('replaces each redacted word with its entity name (asked for), keeping punctuation and timings', () => {
    const { fields } = transcribe(interview.bytes, {
      speaker_labels: true,
      redact_pii: true,
      redact_pii_sub: 'entity_name',
      redact_pii_policies: POLICIES,
    });
    expect(fields.text).toContain("I'm [PERSON_NAME] [PERSON_NAME] with the Harbour Gazette.");
    expect(fields.text).toContain('Thank you, [PERSON_NAME].');
    expect(fields.text).toContain('call [PHONE_NUMBER] or write to [EMAIL_ADDRESS].');
    expect(fields.text).not.toMatch(/Alvarez|Reyes|555-0142|@/);
    // Policies not asked for stay readable.
    expect(fields.text).toContain('between Port Hollow and Gull Island');
    expect(fields.text).toContain('March 14, 2025');
    expect(fields.words.map((word) => [word.start, word.end])).toEqual(
      plain.words.map((word) => [word.start, word.end]),
    );
    expect(fields.utterances?.map((utterance) => utterance.text).join(' ')).toBe(fields.text);
    expect(fields.unredacted_text).toBeUndefined();
  });

  it('hashes by default, as the real service does and as the resource says', () => {
    const { fields } = transcribe(interview.bytes, { redact_pii: true, redact_pii_policies: POLICIES });
    expect(fields.text).toContain('call ###-#### or write to');
  });

  it('hashes every letter and digit with redact_pii_sub hash, keeping lengths', () => {
    const { fields } = transcribe(interview.bytes, {
      redact_pii: true,
      redact_pii_policies: POLICIES,
      redact_pii_sub: 'hash',
    });
    expect(fields.text).toContain("I'm ###### ##### with");
    expect(fields.text).toContain('call ###-#### or write to #####@##########.###.');
    fields.words.forEach((word, index) => expect(word.text.length).toBe(plain.words[index]?.text.length));
  });

  it('returns the unredacted text, words and utterances when asked', () => {
    const { fields } = transcribe(interview.bytes, {
      speaker_labels: true,
      redact_pii: true,
      redact_pii_policies: POLICIES,
      redact_pii_return_unredacted: true,
    });
    expect(fields.unredacted_text).toBe(plain.text);
    expect(fields.unredacted_words).toEqual(plain.words);
    expect(fields.unredacted_utterances).toEqual(plain.utterances);
    expect(fields.text).not.toBe(plain.text);
  });

  it('redacts every detected type when no policies are given', () => {
    const { fields } = transcribe(interview.bytes, { redact_pii: true, redact_pii_sub: 'entity_name' });
    expect(fields.text).toContain('[LOCATION] [LOCATION]');
    expect(fields.text).toContain('[MONEY_AMOUNT] [MONEY_AMOUNT]');
    expect(fields.text).toContain('[ORGANIZATION]');
  });
});

/** RMS of one channel between two times, and how often it crosses zero (per second). */
function measure(samples: Int16Array, sampleRate: number, startMs: number, endMs: number) {
  const from = Math.ceil((startMs * sampleRate) / 1000);
  const to = Math.floor((endMs * sampleRate) / 1000);
  let squares = 0;
  let crossings = 0;
  for (let i = from; i < to; i++) {
    const sample = samples[i] ?? 0;
    squares += sample * sample;
    if (i > from && Math.sign(sample) !== Math.sign(samples[i - 1] ?? 0) && sample !== 0) crossings++;
  }
  return {
    rms: Math.sqrt(squares / Math.max(1, to - from)),
    crossingsPerSecond: (crossings * sampleRate) / Math.max(1, to - from),
  };
}

function differingFrames(a: Int16Array, b: Int16Array): number[] {
  const frames: number[] = [];
  for (let frame = 0; frame < Math.max(a.length, b.length); frame++)
    if (a[frame] !== b[frame]) frames.push(frame);
  return frames;
}

function redactedSpans(words: readonly Word[]): Word[] {
  return words.filter((word) => word.text.includes('['));
}

describe('redacted audio', () => {
  const request = {
    redact_pii: true,
    redact_pii_sub: 'entity_name' as const,
    redact_pii_policies: POLICIES,
    redact_pii_audio: true,
  };
  const { raw, fields } = transcribe(interview.bytes, request);
  const original = decodeAudio(interview.bytes);
  const original0 = original.channels[0] as Int16Array;
  const spans = redactedSpans(fields.words);

  it('beeps at 1 kHz exactly over the PII words and leaves the rest untouched', () => {
    const audio = decodeAudio(redactedAudio(interview.bytes, raw, request));
    const samples = audio.channels[0] as Int16Array;
    expect(audio.sampleRate).toBe(original.sampleRate);
    expect(samples.length).toBe(original0.length);
    expect(spans.length).toBe(8);
    for (const span of spans) {
      const { rms, crossingsPerSecond } = measure(samples, audio.sampleRate, span.start, span.end);
      expect(rms).toBeCloseTo(16384 / Math.SQRT2, -2);
      expect(crossingsPerSecond).toBeGreaterThan(1900);
      expect(crossingsPerSecond).toBeLessThan(2100);
    }
    const framesPerMs = audio.sampleRate / 1000;
    const inSpan = (frame: number) =>
      spans.some(
        (span) => frame >= Math.floor(span.start * framesPerMs) && frame < Math.ceil(span.end * framesPerMs),
      );
    const changedOutside = differingFrames(samples, original0).filter((frame) => !inSpan(frame));
    expect(changedOutside).toEqual([]);
  });

  it('puts silence over the PII words with override_audio_redaction_method silence', () => {
    const silent = { ...request, redact_pii_audio_options: { override_audio_redaction_method: 'silence' } };
    const samples = decodeAudio(redactedAudio(interview.bytes, raw, silent)).channels[0] as Int16Array;
    for (const span of spans) {
      expect(measure(original0, 16_000, span.start, span.end).rms).toBeGreaterThan(500);
      expect(measure(samples, 16_000, span.start, span.end).rms).toBe(0);
    }
  });

  it('returns the recording unchanged when nothing was redacted, in every channel', () => {
    const stereoRequest = { multichannel: true };
    const outcome = transcribeAudio(stereo.bytes, stereoRequest);
    if (outcome.status !== 'completed') throw new Error(outcome.error);
    const redacted = decodeAudio(redactedAudio(stereo.bytes, outcome.fields, stereoRequest)).channels;
    const source = decodeAudio(stereo.bytes).channels;
    expect(redacted).toHaveLength(2);
    redacted.forEach((samples, channel) =>
      expect(differingFrames(samples, source[channel] as Int16Array)).toEqual([]),
    );
  });

  it('beeps in both channels of a multichannel recording', () => {
    const stereoRequest = {
      multichannel: true,
      redact_pii: true,
      redact_pii_sub: 'entity_name',
      redact_pii_policies: ['person_name', 'location'],
    };
    const outcome = transcribeAudio(stereo.bytes, stereoRequest);
    if (outcome.status !== 'completed') throw new Error(outcome.error);
    const words = transcriptFieldsSchema.parse(outcome.fields).words;
    const maria = words.find((word) => word.text.startsWith('[PERSON_NAME]'));
    expect(maria?.channel).toBe('1');
    const audio = decodeAudio(redactedAudio(stereo.bytes, outcome.fields, stereoRequest));
    for (const channel of audio.channels) {
      expect(measure(channel, 16_000, maria?.start ?? 0, maria?.end ?? 0).rms).toBeCloseTo(
        16384 / Math.SQRT2,
        -2,
      );
    }
  });
});
