import { describe, expect, it } from 'vitest';
import { transcriptFieldsSchema } from './spec-shapes';
import { buildWav, readFixture, toneBursts } from './test-audio';
import { transcribeAudio } from './transcribe';
import type { TranscriptRequest, Utterance, Word } from './types';

function transcribe(bytes: Uint8Array, request: TranscriptRequest) {
  const outcome = transcribeAudio(bytes, request);
  if (outcome.status !== 'completed') throw new Error(`expected a transcript, got: ${outcome.error}`);
  return transcriptFieldsSchema.parse(outcome.fields);
}

function errorOf(bytes: Uint8Array, request: TranscriptRequest): string {
  const outcome = transcribeAudio(bytes, request);
  if (outcome.status !== 'error') throw new Error('expected an error outcome');
  return outcome.error;
}

const interview = readFixture('interview-ferry-contract');
const stereo = readFixture('stereo-call');
const spanish = readFixture('spanish-clip');
const silence = readFixture('silence');

const scriptTokens = (turns: readonly { text: string }[]): string[] =>
  turns.flatMap((turn) => turn.text.split(' '));
const texts = (words: readonly Word[]): string[] => words.map((word) => word.text);

describe('transcribeAudio on the interview fixture', () => {
  it("gives two speakers and the manifest's words in order", () => {
    const fields = transcribe(interview.bytes, { speaker_labels: true, disfluencies: true });
    expect(texts(fields.words)).toEqual(scriptTokens(interview.fixture.turns));
    const speakers = interview.fixture.turns.flatMap((turn) => turn.text.split(' ').map(() => turn.speaker));
    expect(fields.words.map((word) => word.speaker)).toEqual(speakers);
    const utterances = fields.utterances ?? [];
    expect(utterances.map((utterance) => utterance.speaker)).toEqual(
      interview.fixture.turns.map((turn) => turn.speaker),
    );
    expect(utterances.map((utterance) => utterance.text)).toEqual(
      interview.fixture.turns.map((turn) => turn.text),
    );
    expect(fields.text).toBe(interview.fixture.turns.map((turn) => turn.text).join(' '));
    expect(fields.audio_duration).toBe(73);
    expect(fields.language_code).toBe('en_us');
    expect(fields.language_confidence).toBeNull();
    expect(fields.speech_model_used).toBe('universal-3-5-pro');
    expect(fields.audio_channels).toBeUndefined();
  });

  it('leaves speakers out without speaker_labels, and merges speakers beyond speakers_expected', () => {
    const plain = transcribe(interview.bytes, {});
    expect(plain.words.every((word) => word.speaker === null)).toBe(true);
    expect(plain.utterances).toBeUndefined();
    const one = transcribe(interview.bytes, { speaker_labels: true, speakers_expected: 1 });
    expect(new Set(one.words.map((word) => word.speaker))).toEqual(new Set(['A']));
    expect(one.utterances).toHaveLength(1);
  });

  it('has deterministic word confidences in range, a few of them low, and their mean as confidence', () => {
    const { words, confidence } = transcribe(interview.bytes, {});
    expect(words.every((word) => word.confidence >= 0.4 && word.confidence <= 0.99)).toBe(true);
    expect(words.filter((word) => word.confidence < 0.6).length).toBeGreaterThanOrEqual(2);
    expect(words.filter((word) => word.confidence >= 0.75).length).toBeGreaterThan(words.length * 0.8);
    const mean = words.reduce((sum, word) => sum + word.confidence, 0) / words.length;
    expect(confidence).toBeCloseTo(mean, 4);
  });

  it('drops um and uh unless disfluencies is true', () => {
    const without = transcribe(interview.bytes, {});
    expect(texts(without.words).some((text) => /^(um|uh)\W*$/i.test(text))).toBe(false);
    expect(without.text).toContain('Well, Northwind offered');
    expect(without.text).toContain('2025. We are confident');
    const withThem = transcribe(interview.bytes, { disfluencies: true });
    expect(withThem.text).toContain('Well, um, Northwind offered');
    expect(withThem.text).toContain('Uh, we are confident');
    expect(withThem.words.length).toBe(without.words.length + 2);
  });

  it('applies custom_spelling to words and text, one word spanning the phrase', () => {
    const plain = transcribe(interview.bytes, {});
    const spelled = transcribe(interview.bytes, {
      custom_spelling: [
        { from: ['Northwind Ferries'], to: 'NorthwindCo' },
        { from: ['gull island'], to: 'Gullisle' },
      ],
    });
    expect(spelled.text).toContain('awarded NorthwindCo a deal');
    expect(spelled.text).toContain('and Gullisle every hour');
    expect(spelled.text).not.toMatch(/Northwind Ferries|Gull Island/);
    const firstIndex = plain.words.findIndex((word) => word.text === 'Northwind');
    const merged = spelled.words.find((word) => word.text === 'NorthwindCo');
    expect(merged?.start).toBe(plain.words[firstIndex]?.start);
    expect(merged?.end).toBe(plain.words[firstIndex + 1]?.end);
    expect(spelled.words.length).toBe(plain.words.length - 2);
  });

  it('masks profanity with filter_profanity as the real service does', () => {
    expect(transcribe(interview.bytes, {}).text).toContain('a damn disgrace');
    const filtered = transcribe(interview.bytes, { filter_profanity: true });
    expect(filtered.text).toContain('a d*** disgrace');
    expect(filtered.text).not.toContain('damn');
  });

  it('honours punctuate and format_text', () => {
    const bare = transcribe(interview.bytes, { punctuate: false, format_text: false });
    expect(bare.words.every((word) => !/[.,?!]$/.test(word.text))).toBe(true);
    expect(bare.text).toBe(bare.text.toLowerCase());
    expect(bare.text).toContain('write to mayor@porthollow.gov we read');
    expect(bare.text).toContain('worth $4.2 million why them');
  });

  it('transcribes only audio_start_from..audio_end_at, with absolute timings', () => {
    const full = transcribe(interview.bytes, {});
    const span = transcribe(interview.bytes, { audio_start_from: 21_000, audio_end_at: 35_000 });
    expect(span.words.length).toBeGreaterThan(10);
    expect(span.text.startsWith('Well, Northwind offered')).toBe(true);
    expect(span.text.endsWith('Some residents are angry about it.')).toBe(true);
    const offset = full.words.findIndex((word) => word.start === span.words[0]?.start);
    expect(full.words.slice(offset, offset + span.words.length)).toEqual(span.words);
    for (const word of span.words) {
      expect((word.start + word.end) / 2).toBeGreaterThanOrEqual(21_000);
      expect((word.start + word.end) / 2).toBeLessThan(35_000);
    }
  });

  it('gives an error for a span with no speech in it', () => {
    expect(errorOf(interview.bytes, { audio_start_from: 8_300, audio_end_at: 9_100 })).toMatch(
      /no spoken audio/,
    );
  });

  it('rejects audio with less speech than speech_threshold, in the real service words', () => {
    expect(errorOf(interview.bytes, { speech_threshold: 0.99 })).toMatch(
      /^Audio speech threshold 0\.\d+ is below the requested speech threshold value 0\.99$/,
    );
    expect(transcribe(interview.bytes, { speech_threshold: 0.5 }).words.length).toBeGreaterThan(0);
  });

  it('accepts prompt, domain and key terms spelled as the script is without changing anything', () => {
    const plain = JSON.stringify(transcribe(interview.bytes, {}));
    const prompted = transcribe(interview.bytes, {
      keyterms_prompt: ['Northwind Ferries', 'Port Hollow'],
      prompt: 'An interview about a ferry contract.',
      domain: 'medical-v1',
    });
    expect(JSON.stringify(prompted)).toBe(plain);
  });

  it('writes the words a key term names as the key term spells them, ignoring case and accents', () => {
    const plain = transcribe(interview.bytes, {});
    const fields = transcribe(interview.bytes, {
      keyterms_prompt: ['Álvarez', 'gull island', 'Harbor Gazette'],
      format_text: false,
    });
    expect(plain.text).toContain('Mayor Elena Alvarez of Port Hollow.');
    // Spelled as given, kept by format_text: false, punctuation around them kept.
    expect(fields.text).toContain('mayor elena Álvarez of port hollow.');
    expect(fields.text).toContain('gull island');
    // A key term that is not what was said changes nothing.
    expect(fields.text).toContain('harbour gazette');
    expect(fields.words.map((word) => [word.start, word.end])).toEqual(
      plain.words.map((word) => [word.start, word.end]),
    );
  });

  it('is deterministic: two runs give byte-identical JSON', () => {
    const request = {
      speaker_labels: true,
      auto_highlights: true,
      content_safety: true,
      iab_categories: true,
      entity_detection: true,
      sentiment_analysis: true,
      auto_chapters: true,
      summarization: true,
      redact_pii: true,
      redact_pii_policies: ['person_name', 'phone_number'],
      redact_pii_return_unredacted: true,
      language_detection: true,
      speech_understanding: { request: { translation: { target_languages: ['es'] } } },
    };
    const first = transcribeAudio(interview.bytes, request);
    const second = transcribeAudio(interview.bytes.slice(), structuredClone(request));
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });
});

describe('multichannel', () => {
  it('names one speaker per channel and takes each channel its own words', () => {
    const fields = transcribe(stereo.bytes, { multichannel: true });
    expect(fields.audio_channels).toBe(2);
    for (const channel of ['1', '2']) {
      const words = fields.words.filter((word) => word.channel === channel);
      expect(words.every((word) => word.speaker === channel)).toBe(true);
      const turns = stereo.fixture.turns.filter((turn) => String(turn.channel) === channel);
      expect(texts(words)).toEqual(scriptTokens(turns));
      for (const turn of turns) {
        const turnWords = words.filter(
          (word) => word.start >= turn.startMs - 40 && word.end <= turn.endMs + 40,
        );
        expect(texts(turnWords)).toEqual(turn.text.split(' '));
      }
    }
    const utterances = fields.utterances as Utterance[];
    expect(utterances.map((utterance) => [utterance.channel, utterance.text])).toEqual(
      stereo.fixture.turns.map((turn) => [String(turn.channel), turn.text]),
    );
  });

  it('labels speakers within channels when speaker_labels is on too', () => {
    const fields = transcribe(stereo.bytes, { multichannel: true, speaker_labels: true });
    expect(new Set(fields.words.map((word) => word.speaker))).toEqual(new Set(['1A', '2A']));
  });

  it('hears a stereo file as one mix without multichannel', () => {
    const fields = transcribe(stereo.bytes, { speaker_labels: true });
    expect(fields.audio_channels).toBeUndefined();
    expect(fields.words.some((word) => 'channel' in word)).toBe(false);
    expect(texts(fields.words)).toEqual(scriptTokens(stereo.fixture.turns));
    expect(fields.utterances?.map((utterance) => utterance.speaker)).toEqual(['A', 'B', 'A', 'B']);
  });
});

describe('language', () => {
  it('detects the Spanish clip with a confidence', () => {
    const fields = transcribe(spanish.bytes, { language_detection: true });
    expect(fields.language_code).toBe('es');
    expect(fields.language_confidence).toBeGreaterThan(0.8);
    expect(fields.language_confidence).toBeLessThan(0.99);
    expect(fields.text).toContain('transbordador');
  });

  it('fails below language_confidence_threshold with the real service message', () => {
    expect(errorOf(spanish.bytes, { language_detection: true, language_confidence_threshold: 0.99 })).toMatch(
      /^detected language 'es', confidence 0\.\d+, is below the requested confidence threshold value of '0\.99'$/,
    );
    expect(
      transcribe(spanish.bytes, { language_detection: true, language_confidence_threshold: 0.5 })
        .language_code,
    ).toBe('es');
  });

  it('applies expected languages, the fallback and localization', () => {
    const options = (language_detection_options: Record<string, unknown>) => ({
      language_detection: true,
      language_detection_options,
    });
    expect(transcribe(spanish.bytes, options({ expected_languages: ['en', 'fr'] })).language_code).toBe('en');
    expect(
      transcribe(spanish.bytes, options({ expected_languages: ['en', 'fr'], fallback_language: 'fr' }))
        .language_code,
    ).toBe('fr');
    expect(transcribe(interview.bytes, options({ localization: ['en_uk'] })).language_code).toBe('en_uk');
    expect(transcribe(spanish.bytes, options({ localization: ['en_uk'] })).language_code).toBe('es');
  });

  it('echoes language_code and picks the first model that covers the language', () => {
    expect(transcribe(spanish.bytes, { language_code: 'es' }).language_code).toBe('es');
    expect(transcribe(interview.bytes, { speech_models: ['universal-2'] }).speech_model_used).toBe(
      'universal-2',
    );
    expect(transcribe(interview.bytes, { language_code: 'ja' }).speech_model_used).toBe('universal-2');
  });
});

describe('audio that cannot be transcribed', () => {
  it('reports a silent file as having no spoken audio', () => {
    expect(errorOf(silence.bytes, {})).toMatch(/no spoken audio/);
    expect(errorOf(silence.bytes, { language_detection: true })).toBe(
      'language_detection cannot be performed on files with no spoken audio',
    );
  });

  it('reports unreadable bytes as a transcoding failure', () => {
    expect(errorOf(new TextEncoder().encode('<html>not audio</html>'), {})).toMatch(
      /^Transcoding failed\. File does not appear to contain audio/,
    );
    expect(errorOf(new Uint8Array(0), {})).toMatch(/^Transcoding failed/);
  });
});

describe('audio that is not a fixture', () => {
  const bursts = toneBursts(16_000, 500, [
    { toneMs: 2000, pauseMs: 300 },
    { toneMs: 1500, pauseMs: 1500 },
    { toneMs: 2500, pauseMs: 1500 },
    { toneMs: 1000, pauseMs: 500 },
  ]);
  const bytes = buildWav([bursts], 16_000, 'int16');

  it('gets about 2.5 filler words per second of speech, alternating speakers between long pauses', () => {
    const fields = transcribe(bytes, { speaker_labels: true });
    expect(fields.words.length).toBeGreaterThanOrEqual(15);
    expect(fields.words.length).toBeLessThanOrEqual(20);
    expect(fields.utterances?.map((utterance) => utterance.speaker)).toEqual(['A', 'B', 'A']);
    expect(fields.text).toMatch(/^[A-Z].*\.$/);
    expect(fields.words.every((word) => word.start >= 480)).toBe(true);
  });

  it('derives the filler from the audio: same bytes, same words; other bytes, other words', () => {
    const again = transcribe(bytes.slice(), { speaker_labels: true });
    expect(again).toEqual(transcribe(bytes, { speaker_labels: true }));
    const other = buildWav([bursts.map((sample) => sample * 0.9)], 16_000, 'int16');
    expect(transcribe(other, {}).text).not.toBe(again.text);
  });

  it('follows speakers_expected when naming blocks', () => {
    const fields = transcribe(bytes, { speaker_labels: true, speakers_expected: 3 });
    expect(fields.utterances?.map((utterance) => utterance.speaker)).toEqual(['A', 'B', 'C']);
  });
});
