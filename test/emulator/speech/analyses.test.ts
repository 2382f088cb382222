import { describe, expect, it } from 'vitest';
import { paragraphsOf, sentencesOf } from './segmentation';
import { paragraphSchema, sentenceSchema, transcriptFieldsSchema } from './spec-shapes';
import { readFixture } from './test-audio';
import { transcribeAudio } from './transcribe';
import type { TranscriptRequest } from './types';

const interview = readFixture('interview-ferry-contract');
const stereo = readFixture('stereo-call');

function analyse(request: TranscriptRequest) {
  const outcome = transcribeAudio(interview.bytes, request);
  if (outcome.status !== 'completed') throw new Error(outcome.error);
  return { raw: outcome.fields, fields: transcriptFieldsSchema.parse(outcome.fields) };
}

const everything: TranscriptRequest = {
  speaker_labels: true,
  auto_highlights: true,
  content_safety: true,
  iab_categories: true,
  entity_detection: true,
  sentiment_analysis: true,
  auto_chapters: true,
  summarization: true,
};

describe('analyses', () => {
  const { raw, fields } = analyse(everything);
  const sentences = sentencesOf(raw, everything);

  it('produces only enabled analyses', () => {
    const plain = analyse({}).fields;
    for (const name of [
      'auto_highlights_result',
      'content_safety_labels',
      'iab_categories_result',
      'entities',
      'sentiment_analysis_results',
      'chapters',
      'summary',
    ] as const) {
      expect(fields[name], name).toBeDefined();
      expect(plain[name], name).toBeUndefined();
    }
  });

  it('finds the entities of the interview with the real service entity types', () => {
    const found = (fields.entities ?? []).map((entity) => [entity.entity_type, entity.text]);
    expect(found).toEqual([
      ['person_name', 'Daniel Reyes'],
      ['organization', 'Harbour Gazette'],
      ['person_name', 'Elena Alvarez'],
      ['location', 'Port Hollow'],
      ['person_name', 'Daniel'],
      ['organization', 'Northwind Ferries'],
      ['money_amount', '$4.2 million'],
      ['organization', 'Northwind'],
      ['location', 'Port Hollow'],
      ['location', 'Gull Island'],
      ['date', 'March 14, 2025'],
      ['phone_number', '555-0142'],
      ['email_address', 'mayor@porthollow.gov'],
      ['person_name', 'Alvarez'],
    ]);
    const phone = fields.entities?.find((entity) => entity.entity_type === 'phone_number');
    const phoneWord = fields.words.find((word) => word.text === '555-0142');
    expect([phone?.start, phone?.end]).toEqual([phoneWord?.start, phoneWord?.end]);
  });

  it('ranks key phrases, counting each occurrence with its timestamps', () => {
    const results = fields.auto_highlights_result?.results ?? [];
    expect(results.length).toBeGreaterThan(5);
    expect(results[0]?.rank).toBe(1);
    const ranks = results.map((result) => result.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    const portHollow = results.find((result) => result.text === 'port hollow');
    expect(portHollow?.count).toBe(2);
    const starts = fields.words
      .filter((word, index) => word.text === 'Port' && fields.words[index + 1]?.text.startsWith('Hollow'))
      .map((word) => word.start);
    expect(portHollow?.timestamps.map((timestamp) => timestamp.start)).toEqual(starts);
  });

  it('labels sensitive sentences, pointing at the sentences by index', () => {
    const safety = fields.content_safety_labels;
    const profane = safety?.results.find((result) =>
      result.labels.some((label) => label.label === 'profanity'),
    );
    expect(profane?.text).toContain('damn disgrace');
    for (const result of safety?.results ?? []) {
      expect(sentences[result.sentences_idx_start]?.text).toBe(result.text);
      expect(result.timestamp).toEqual({
        start: sentences[result.sentences_idx_start]?.start,
        end: sentences[result.sentences_idx_end]?.end,
      });
    }
    expect(Object.keys(safety?.summary ?? {})).toEqual(
      expect.arrayContaining(['profanity', 'company_financials', 'negative_news']),
    );
    for (const buckets of Object.values(safety?.severity_score_summary ?? {})) {
      expect(buckets.low + buckets.medium + buckets.high).toBeCloseTo(1, 3);
    }
  });

  it('drops content safety labels below content_safety_confidence', () => {
    const strict = analyse({ content_safety: true, content_safety_confidence: 75 }).fields
      .content_safety_labels;
    const all = strict?.results.flatMap((result) => result.labels) ?? [];
    expect(all.every((label) => label.confidence >= 0.75)).toBe(true);
    expect(all.length).toBeLessThan(
      fields.content_safety_labels?.results.flatMap((result) => result.labels).length ?? 0,
    );
  });

  it('detects topics with hierarchical labels', () => {
    const topics = fields.iab_categories_result;
    expect(topics?.results.length).toBeGreaterThan(3);
    const labels = topics?.results.flatMap((result) => result.labels.map((label) => label.label)) ?? [];
    expect(labels.every((label) => /^[A-Za-z&]+(>[A-Za-z&]+)*$/.test(label))).toBe(true);
    expect(labels.some((label) => label.includes('>'))).toBe(true);
    expect(Math.max(...Object.values(topics?.summary ?? {}))).toBe(1);
    expect(Object.keys(topics?.summary ?? {})[0]).toBe(
      'BusinessAndFinance>Industries>LogisticsAndTransportationIndustry',
    );
  });

  it('gives each sentence a sentiment with its speaker', () => {
    const results = fields.sentiment_analysis_results ?? [];
    expect(results.map((result) => result.text)).toEqual(sentences.map((sentence) => sentence.text));
    const of = (text: string) => results.find((result) => result.text === text);
    expect(of('Some residents are angry about it.')?.sentiment).toBe('NEGATIVE');
    expect(of("It's a pleasure to be here.")?.sentiment).toBe('POSITIVE');
    expect(of('When does the new ferry service start?')?.sentiment).toBe('NEUTRAL');
    expect(of("It's a pleasure to be here.")?.speaker).toBe('B');
  });

  it('splits the recording into sequential chapters with gist, headline and summary', () => {
    const chapters = fields.chapters ?? [];
    expect(chapters.length).toBeGreaterThanOrEqual(2);
    expect(chapters[0]?.start).toBe(fields.words[0]?.start);
    expect(chapters[chapters.length - 1]?.end).toBe(fields.words[fields.words.length - 1]?.end);
    chapters
      .slice(1)
      .forEach((chapter, index) => expect(chapter.start).toBeGreaterThan(chapters[index]?.end ?? 0));
    for (const chapter of chapters) {
      expect(chapter.gist.split(' ').length).toBeLessThanOrEqual(4);
      expect(fields.text).toContain(chapter.headline);
      expect(chapter.summary.length).toBeGreaterThan(chapter.headline.length);
    }
  });

  it('summarises as bullets by default and in the other summary types', () => {
    expect(fields.summary?.split('\n').every((line) => line.startsWith('- '))).toBe(true);
    expect(fields.summary?.split('\n')).toHaveLength(3);
    const summary = (summary_type: string) =>
      analyse({ summarization: true, summary_type }).fields.summary ?? '';
    expect(summary('bullets_verbose').split('\n').length).toBeGreaterThan(3);
    expect(summary('paragraph')).not.toContain('- ');
    expect(sentences.map((sentence) => sentence.text)).toContain(summary('headline'));
    expect(summary('gist').split(' ').length).toBeLessThanOrEqual(4);
  });
});

describe('translation', () => {
  const translation = (options: Record<string, unknown>) => ({
    speaker_labels: true,
    speech_understanding: { request: { translation: { target_languages: ['es', 'de'], ...options } } },
  });

  it('adds translated_texts per target language and reports the feature status', () => {
    const { fields } = analyse(translation({}));
    expect(Object.keys(fields.translated_texts ?? {})).toEqual(['es', 'de']);
    expect(fields.translated_texts?.es).toContain('transbordador');
    expect(fields.translated_texts?.de).toContain('Fähre');
    expect(fields.translated_texts?.es).toContain('Gracias tú');
    expect(fields.speech_understanding).toEqual({
      request: { translation: { target_languages: ['es', 'de'] } },
      response: { translation: { status: 'success' } },
    });
    expect(fields.utterances?.every((utterance) => utterance.translated_texts === undefined)).toBe(true);
  });

  it('uses the formal form and translates each utterance when asked', () => {
    const { fields } = analyse(translation({ formal: true, match_original_utterance: true }));
    expect(fields.translated_texts?.es).toContain('Gracias usted');
    for (const utterance of fields.utterances ?? []) {
      expect(Object.keys(utterance.translated_texts ?? {})).toEqual(['es', 'de']);
    }
  });
});

describe('sentences and paragraphs', () => {
  it('splits at sentence punctuation without crossing speakers', () => {
    const request = { speaker_labels: true };
    const { raw, fields } = analyse(request);
    const sentences = sentencesOf(raw, request).map((sentence) => sentenceSchema.parse(sentence));
    expect(sentences).toHaveLength(23);
    expect(sentences.map((sentence) => sentence.text).join(' ')).toBe(fields.text);
    for (const sentence of sentences) {
      expect(sentence.words.every((word) => word.speaker === sentence.speaker)).toBe(true);
      expect(sentence.text).toMatch(/[.?!]$/);
      expect(sentence.start).toBe(sentence.words[0]?.start);
      expect(sentence.end).toBe(sentence.words[sentence.words.length - 1]?.end);
    }
    const paragraphs = paragraphsOf(raw, request).map((paragraph) => paragraphSchema.parse(paragraph));
    expect(paragraphs.map((paragraph) => paragraph.text)).toEqual(
      interview.fixture.turns.map((turn) => turn.text.replace(/Well, um,/, 'Well,').replace(/Uh, we/, 'We')),
    );
  });

  it('splits at pauses when the text has no punctuation', () => {
    const request = { punctuate: false };
    const { raw } = analyse(request);
    const sentences = sentencesOf(raw, request);
    expect(sentences.length).toBeGreaterThanOrEqual(20);
    expect(sentences[0]?.text).toBe("Good morning I'm Daniel Reyes with the Harbour Gazette");
    expect(sentences.every((sentence) => sentence.speaker === null)).toBe(true);
  });

  it('carries the channel with multichannel', () => {
    const outcome = transcribeAudio(stereo.bytes, { multichannel: true });
    if (outcome.status !== 'completed') throw new Error(outcome.error);
    const sentences = sentencesOf(outcome.fields, { multichannel: true });
    expect(sentences.map((sentence) => [sentence.channel, sentence.speaker])).toEqual([
      ['1', '1'],
      ['1', '1'],
      ['2', '2'],
      ['1', '1'],
      ['2', '2'],
    ]);
  });
});
