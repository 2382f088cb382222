import { describe, expect, it } from 'vitest';
import { readAnalyses } from './analyses';

describe('readAnalyses', () => {
  it('finds nothing in a transcript without analyses, or none at all', () => {
    const empty = readAnalyses(null);
    expect(empty.entities).toEqual([]);
    expect(empty.summary).toBeNull();
    expect(empty.hasUnredacted).toBe(false);
    expect(readAnalyses({ entities: 'nonsense', chapters: [null, 3] }).chapters).toEqual([]);
  });

  it('groups entities by type and text with every mention, most mentioned first', () => {
    const { entities } = readAnalyses({
      entities: [
        { entity_type: 'person_name', text: 'Elena Alvarez', start: 5000, end: 6000 },
        { entity_type: 'location', text: 'Harbor', start: 1000, end: 1500 },
        { entity_type: 'person_name', text: 'elena alvarez', start: 9000, end: 9800 },
        { entity_type: 'location', text: 'Broken' },
      ],
    });
    expect(entities).toEqual([
      { text: 'Elena Alvarez', detail: 'person name', starts: [5000, 9000] },
      { text: 'Harbor', detail: 'location', starts: [1000] },
    ]);
  });

  it('reads key phrases, sentiment, safety, topics, chapters, summary and translations', () => {
    const analyses = readAnalyses({
      auto_highlights_result: {
        status: 'success',
        results: [
          { count: 1, rank: 0.2, text: 'budget', timestamps: [{ start: 10, end: 20 }] },
          {
            count: 2,
            rank: 0.9,
            text: 'ferry contract',
            timestamps: [
              { start: 900, end: 990 },
              { start: 30, end: 40 },
            ],
          },
        ],
      },
      sentiment_analysis_results: [
        { text: 'Great.', start: 0, end: 500, sentiment: 'POSITIVE', confidence: 0.9, speaker: 'A' },
        { text: 'Odd.', start: 0, end: 500, sentiment: 'WEIRD', confidence: 0.9, speaker: 'A' },
      ],
      content_safety_labels: {
        results: [
          {
            text: 'x',
            labels: [{ label: 'profanity', confidence: 0.8, severity: 0.3 }],
            timestamp: { start: 70, end: 80 },
          },
        ],
      },
      iab_categories_result: { summary: { 'News>Local': 0.4, Business: 0.9, bad: 'x' } },
      chapters: [{ gist: 'g', headline: 'Opening', summary: 's', start: 0, end: 1000 }],
      summary: '  The mayor defends the contract. ',
      translated_texts: { es: 'Hola', fr: 3 },
      unredacted_words: [{ text: 'Elena', start: 1, end: 2, confidence: 1, speaker: null }],
    });
    expect(analyses.keyPhrases.map((phrase) => [phrase.text, phrase.starts])).toEqual([
      ['ferry contract', [30, 900]],
      ['budget', [10]],
    ]);
    expect(analyses.sentiment).toEqual([{ start: 0, end: 500, sentiment: 'POSITIVE', text: 'Great.' }]);
    expect(analyses.safety[0]?.start).toBe(70);
    expect(analyses.topics).toEqual([
      { label: 'Business', relevance: 0.9 },
      { label: 'News>Local', relevance: 0.4 },
    ]);
    expect(analyses.chapters[0]?.headline).toBe('Opening');
    expect(analyses.summary).toBe('The mayor defends the contract.');
    expect(analyses.translations).toEqual([{ language: 'es', text: 'Hola' }]);
    expect(analyses.hasUnredacted).toBe(true);
  });
});
