import { contentSafety } from './content-safety';
import { detectEntities, type DetectedEntity } from './entities';
import { fixtureFor, type Fixture } from './fixture-manifest';
import { keyPhrases } from './key-phrases';
import { resolveLanguage, speechModelUsed } from './language';
import { redactWords, type PiiSubstitution } from './pii-redaction';
import { roundTo, seededRandom, sha256Hex } from './seeded-random';
import { buildParagraphs, buildSentences, buildUtterances, joinWords, meanConfidence } from './segmentation';
import { sentimentAnalysis } from './sentiment';
import { detectSpeechRegions } from './speech-regions';
import { chaptersOf, summaryOf } from './summaries';
import { topicDetection } from './topics';
import { translateAll } from './translation';
import type { SpeechRegion, TranscriptRequest, TranscriptionOutcome, Word } from './types';
import { decodeAudio, UnreadableAudioError, type DecodedAudio } from './wav-decode';
import { alignScript, fillerWords, type PlacedWord } from './word-layout';
import {
  applyCustomSpelling,
  applyKeyterms,
  filterProfanity,
  removeDisfluencies,
  stripPunctuation,
  unformat,
  type CustomSpelling,
  type DraftWord,
} from './word-transforms';

/**
 * Processing of one transcript: from the audio bytes and the request to the transcript fields, the
 * same every time for the same inputs. Fixture recordings (known by their sha256) get their script's
 * words; other audio gets filler words; either way the words sit on the speech the energy detector
 * finds. keyterms_prompt spells the words it names as given (see applyKeyterms); prompt, domain,
 * custom_topics and remove_audio_tags are accepted and bias nothing.
 */

/** Share of word confidences drawn from the low band, so "low confidence" words exist. */
const LOW_CONFIDENCE_SHARE = 0.06;
const DEFAULT_CONTENT_SAFETY_CONFIDENCE = 50;

interface Track {
  /** 1-based channel with multichannel; undefined when all channels are heard together. */
  channel: number | undefined;
  samples: Int16Array[];
}

interface TrackWord extends PlacedWord {
  channel: number | undefined;
  confidence: number;
}

function noSpokenAudio(request: TranscriptRequest): TranscriptionOutcome {
  return {
    status: 'error',
    error:
      request.language_detection === true
        ? 'language_detection cannot be performed on files with no spoken audio'
        : 'Transcription failed: the file contains no spoken audio',
  };
}

function wordConfidence(random: () => number): number {
  const low = random() < LOW_CONFIDENCE_SHARE;
  const value = random();
  return roundTo(low ? 0.42 + value * 0.16 : 0.75 + value * 0.24, 5);
}

/** Speech regions cut to the transcribed span. */
function clipRegions(regions: readonly SpeechRegion[], from: number, to: number): SpeechRegion[] {
  return regions
    .map((region) => ({ start: Math.max(region.start, from), end: Math.min(region.end, to) }))
    .filter((region) => region.end > region.start);
}

function trackWords(
  track: Track,
  audio: DecodedAudio,
  fixture: Fixture | undefined,
  span: { from: number; to: number },
  audioHash: string,
  speakerCount: number,
): { words: TrackWord[]; speechMs: number } {
  const regions = detectSpeechRegions(track.samples, audio.sampleRate);
  const inSpan = clipRegions(regions, span.from, span.to);
  const speechMs = inSpan.reduce((sum, region) => sum + region.end - region.start, 0);
  const trackKey = `${audioHash}:${track.channel ?? 'all'}`;
  let placed: PlacedWord[];
  if (fixture === undefined) {
    placed = fillerWords(inSpan, seededRandom(`${trackKey}:filler`), speakerCount);
  } else {
    // The whole script is aligned to the whole recording, then only the words in the span are kept,
    // so a word keeps the same time whichever span is asked for.
    const turns = fixture.turns.filter(
      (turn) => track.channel === undefined || (turn.channel ?? 1) === track.channel,
    );
    placed = alignScript(turns, regions);
  }
  const random = seededRandom(`${trackKey}:confidence`);
  const words = placed
    .map((word) => ({ ...word, channel: track.channel, confidence: wordConfidence(random) }))
    .filter((word) => {
      const middle = (word.start + word.end) / 2;
      return middle >= span.from && middle < span.to;
    });
  return { words, speechMs };
}

/** Speaker names: letters in order of appearance (capped by speakers_expected), or channel numbers. */
function speakerNamer(request: TranscriptRequest, multichannel: boolean): (word: TrackWord) => string | null {
  const speakerLabels = request.speaker_labels === true;
  const expected = typeof request.speakers_expected === 'number' ? request.speakers_expected : undefined;
  const order = new Map<string, number>();
  return (word) => {
    const key = multichannel ? `${word.channel}:${word.speaker}` : word.speaker;
    if (!order.has(key)) {
      const sameChannel = [...order.keys()].filter(
        (known) => !multichannel || known.startsWith(`${word.channel}:`),
      );
      order.set(key, sameChannel.length);
    }
    const index = Math.min(
      order.get(key) ?? 0,
      expected === undefined ? Infinity : Math.max(0, expected - 1),
    );
    const letter = String.fromCharCode(65 + index);
    // With multichannel the speaker is the channel number; with speaker labels too, speakers within a
    // channel get letters after it ("1A"), as the real service documents.
    if (multichannel) return speakerLabels ? `${word.channel}${letter}` : String(word.channel);
    return speakerLabels ? letter : null;
  };
}

function keyterms(request: TranscriptRequest): string[] {
  const value = request.keyterms_prompt;
  return Array.isArray(value) ? value.filter((term): term is string => typeof term === 'string') : [];
}

function customSpellings(request: TranscriptRequest): CustomSpelling[] {
  const value = request.custom_spelling;
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    const { from, to } = (item ?? {}) as { from?: unknown; to?: unknown };
    if (typeof to !== 'string' || !Array.isArray(from)) return [];
    return [{ from: from.filter((phrase): phrase is string => typeof phrase === 'string'), to }];
  });
}

function toWord({ text, start, end, confidence, speaker, channel }: DraftWord): Word {
  return { text, start, end, confidence, speaker, ...(channel === undefined ? {} : { channel }) };
}

interface TranslationRequest {
  target_languages?: unknown;
  formal?: unknown;
  match_original_utterance?: unknown;
}

function translationRequest(request: TranscriptRequest): TranslationRequest | undefined {
  const understanding = request.speech_understanding as
    { request?: { translation?: TranslationRequest } } | undefined;
  return understanding?.request?.translation;
}

export function transcribeAudio(bytes: Uint8Array, request: TranscriptRequest): TranscriptionOutcome {
  let audio: DecodedAudio;
  try {
    audio = decodeAudio(bytes);
  } catch (error) {
    if (!(error instanceof UnreadableAudioError)) throw error;
    return {
      status: 'error',
      error: `Transcoding failed. File does not appear to contain audio: ${error.message}.`,
    };
  }
  const audioHash = sha256Hex(bytes);
  const fixture = fixtureFor(audioHash);
  const multichannel = request.multichannel === true;
  const span = {
    from: typeof request.audio_start_from === 'number' ? request.audio_start_from : 0,
    to: typeof request.audio_end_at === 'number' ? request.audio_end_at : audio.durationMs,
  };
  const speakerCount = typeof request.speakers_expected === 'number' ? request.speakers_expected : 2;
  const tracks: Track[] = multichannel
    ? audio.channels.map((samples, index) => ({ channel: index + 1, samples: [samples] }))
    : [{ channel: undefined, samples: audio.channels }];

  const perTrack = tracks.map((track) => trackWords(track, audio, fixture, span, audioHash, speakerCount));
  const placed = perTrack
    .flatMap((track) => track.words)
    .sort((a, b) => a.start - b.start || (a.channel ?? 0) - (b.channel ?? 0));
  if (placed.length === 0) return noSpokenAudio(request);

  if (typeof request.speech_threshold === 'number') {
    const spanMs = Math.max(1, span.to - span.from);
    const speechShare = roundTo(Math.max(...perTrack.map((track) => track.speechMs)) / spanMs, 4);
    if (speechShare < request.speech_threshold) {
      return {
        status: 'error',
        error: `Audio speech threshold ${speechShare} is below the requested speech threshold value ${request.speech_threshold}`,
      };
    }
  }

  const language = resolveLanguage(request, fixture?.language ?? 'en', audioHash);
  if (!language.ok) return { status: 'error', error: language.error };

  const nameSpeaker = speakerNamer(request, multichannel);
  let words: DraftWord[] = placed.map((word) => ({
    text: word.text,
    start: word.start,
    end: word.end,
    confidence: word.confidence,
    speaker: nameSpeaker(word),
    ...(multichannel ? { channel: String(word.channel) } : {}),
  }));
  const punctuate = request.punctuate !== false;
  if (request.disfluencies !== true) words = removeDisfluencies(words);
  if (!punctuate) words = stripPunctuation(words);
  words = applyKeyterms(words, keyterms(request));
  words = applyCustomSpelling(words, customSpellings(request));
  if (request.filter_profanity === true) words = filterProfanity(words);
  // Entities are found while the words still carry capitals; lower-casing keeps every offset valid.
  const detected = detectEntities(words);
  if (request.format_text === false) words = unformat(words);
  const unredacted = words.map(toWord);
  const finalText = joinWords(unredacted);
  const entities: DetectedEntity[] = detected.map((entity) => ({
    ...entity,
    text: finalText.slice(entity.charStart, entity.charEnd),
  }));

  let output = unredacted;
  if (request.redact_pii === true) {
    const policies = Array.isArray(request.redact_pii_policies)
      ? new Set(request.redact_pii_policies)
      : undefined;
    // The real service's default substitution is hash, as the resource reports.
    const substitution: PiiSubstitution = request.redact_pii_sub === 'entity_name' ? 'entity_name' : 'hash';
    const toRedact = entities.filter((entity) => policies === undefined || policies.has(entity.entity_type));
    output = redactWords(unredacted, toRedact, substitution);
  }

  const withUtterances = request.speaker_labels === true || multichannel;
  const utterances = buildUtterances(output);
  const fields: Record<string, unknown> = {
    text: joinWords(output),
    words: output,
    ...(withUtterances ? { utterances } : {}),
    confidence: meanConfidence(output),
    audio_duration: Math.round(audio.durationMs / 1000),
    ...(multichannel ? { audio_channels: audio.channels.length } : {}),
    language_code: language.languageCode,
    language_confidence: language.languageConfidence,
    speech_model_used: speechModelUsed(request, language.languageCode),
  };

  if (request.redact_pii === true && request.redact_pii_return_unredacted === true) {
    fields.unredacted_text = finalText;
    fields.unredacted_words = unredacted;
    if (withUtterances) fields.unredacted_utterances = buildUtterances(unredacted);
  }

  // Analyses read the unredacted words, as the real service's do.
  const sentences = buildSentences(unredacted, punctuate);
  const paragraphs = buildParagraphs(sentences);
  if (request.auto_highlights === true) {
    fields.auto_highlights_result = { status: 'success', results: keyPhrases(unredacted) };
  }
  if (request.content_safety === true) {
    const confidence =
      typeof request.content_safety_confidence === 'number'
        ? request.content_safety_confidence
        : DEFAULT_CONTENT_SAFETY_CONFIDENCE;
    fields.content_safety_labels = contentSafety(sentences, confidence);
  }
  if (request.iab_categories === true) fields.iab_categories_result = topicDetection(paragraphs);
  if (request.entity_detection === true) {
    fields.entities = entities.map(({ entity_type, text, start, end }) => ({
      entity_type,
      text,
      start,
      end,
    }));
  }
  if (request.sentiment_analysis === true) fields.sentiment_analysis_results = sentimentAnalysis(sentences);
  if (request.auto_chapters === true) fields.chapters = chaptersOf(paragraphs, sentences);
  if (request.summarization === true) {
    fields.summary = summaryOf(
      sentences,
      typeof request.summary_type === 'string' ? request.summary_type : 'bullets',
    );
  }

  const translation = translationRequest(request);
  if (translation !== undefined) {
    const targets = Array.isArray(translation.target_languages)
      ? translation.target_languages.filter((code): code is string => typeof code === 'string')
      : [];
    const formal = translation.formal === true;
    // The translation reads the transcript as delivered, so redacted text stays redacted.
    fields.translated_texts = translateAll(joinWords(output), targets, formal);
    if (translation.match_original_utterance === true && withUtterances) {
      fields.utterances = utterances.map((utterance) => ({
        ...utterance,
        translated_texts: translateAll(utterance.text, targets, formal),
      }));
    }
    // The real service echoes the request under speech_understanding and adds each feature's status.
    fields.speech_understanding = {
      ...(request.speech_understanding as Record<string, unknown>),
      response: { translation: { status: 'success' } },
    };
  }
  return { status: 'completed', fields };
}
