import { describe, expect, it } from 'vitest';
import type { TranscriptSummary } from '../../../shared/library';
import {
  correctionsLabel,
  dayEnd,
  dayStart,
  emptyFilters,
  formatClock,
  formatMatchCount,
  formatQuoteCount,
  languageShortName,
  matchesFilters,
  rangeBetween,
  reviewLabel,
  speakerNames,
  statusText,
  upsert,
} from './library-format';

function summary(overrides: Partial<TranscriptSummary> = {}): TranscriptSummary {
  return {
    id: 't1',
    remoteId: null,
    region: 'us',
    title: 'Interview',
    sourceKind: 'file',
    source: '/a.wav',
    audioPath: '/a.wav',
    status: 'completed',
    error: null,
    languageCode: 'en_us',
    audioDurationMs: 73_400,
    createdAt: new Date(2026, 10, 20, 10).getTime(),
    updatedAt: 0,
    completedAt: null,
    tags: ['ferry'],
    speakers: [
      { label: 'A', name: 'Daniel Reyes' },
      { label: 'B', name: null },
    ],
    bytesTotal: null,
    bytesSent: 0,
    corrections: 0,
    review: { checked: 0, paragraphs: 0 },
    ...overrides,
  };
}

describe('library formatting', () => {
  it('writes durations and times as hh:mm:ss', () => {
    expect(formatClock(73_400)).toBe('00:01:13');
    expect(formatClock(3 * 3600 * 1000)).toBe('03:00:00');
    expect(formatClock(null)).toBe('—');
  });

  it('says the upload percentage, then the state in words', () => {
    expect(statusText(summary({ status: 'uploading', bytesSent: 45, bytesTotal: 100 }))).toBe(
      'Uploading 45 %',
    );
    expect(statusText(summary({ status: 'uploading', bytesTotal: null }))).toBe('Uploading');
    expect(statusText(summary({ status: 'queued' }))).toBe('Queued');
    expect(statusText(summary({ status: 'processing' }))).toBe('Transcribing');
    expect(statusText(summary({ status: 'fetching' }))).toBe('Saving');
  });

  it('counts matches, with a lower bound', () => {
    expect(formatMatchCount(1, false)).toBe('1 match');
    expect(formatMatchCount(12, false)).toBe('12 matches');
    expect(formatMatchCount(1000, true)).toBe('1,000+ matches');
    expect(formatQuoteCount(1, false)).toBe('1 quote');
    expect(formatQuoteCount(240, false)).toBe('240 quotes');
    expect(formatQuoteCount(1000, true)).toBe('1,000+ quotes');
  });

  it('names unnamed speakers by their label', () => {
    expect(speakerNames(summary())).toEqual(['Daniel Reyes', 'Speaker B']);
  });
});

describe('list filters', () => {
  it('apply dates as whole local days', () => {
    const item = summary();
    expect(dayEnd('2026-11-20')! - dayStart('2026-11-20')!).toBe(24 * 3600 * 1000 - 1);
    expect(matchesFilters(item, { ...emptyFilters, from: '2026-11-20', to: '2026-11-20' })).toBe(true);
    expect(matchesFilters(item, { ...emptyFilters, from: '2026-11-21' })).toBe(false);
    expect(matchesFilters(item, { ...emptyFilters, to: '2026-11-19' })).toBe(false);
  });

  it('apply tag, status, language prefix and speaker name or label', () => {
    const item = summary();
    expect(matchesFilters(item, { ...emptyFilters, tag: 'ferry' })).toBe(true);
    expect(matchesFilters(item, { ...emptyFilters, tag: 'council' })).toBe(false);
    expect(matchesFilters(item, { ...emptyFilters, status: 'error' })).toBe(false);
    expect(matchesFilters(item, { ...emptyFilters, language: 'en' })).toBe(true);
    expect(matchesFilters(item, { ...emptyFilters, language: 'es' })).toBe(false);
    expect(matchesFilters(item, { ...emptyFilters, speaker: 'daniel reyes' })).toBe(true);
    expect(matchesFilters(item, { ...emptyFilters, speaker: 'B' })).toBe(true);
    expect(matchesFilters(item, { ...emptyFilters, speaker: 'Elena' })).toBe(false);
  });
});

describe('list updates and selection', () => {
  it('replaces a row in place and puts a new job on top', () => {
    const old = summary({ id: 'old', createdAt: 1 });
    const list = [old];
    const updated = upsert(list, { ...old, status: 'error' });
    expect(updated).toHaveLength(1);
    expect(updated[0]!.status).toBe('error');
    expect(upsert(updated, summary({ id: 'new', createdAt: 2 })).map((s) => s.id)).toEqual(['new', 'old']);
  });

  it('selects a range either way', () => {
    const ids = ['a', 'b', 'c', 'd'];
    expect(rangeBetween(ids, 'b', 'd')).toEqual(['b', 'c', 'd']);
    expect(rangeBetween(ids, 'd', 'b')).toEqual(['b', 'c', 'd']);
    expect(rangeBetween(ids, 'gone', 'c')).toEqual(['c']);
  });
});

describe('the review in the library', () => {
  it('filters to transcripts not fully checked against the audio', () => {
    const unchecked = { ...emptyFilters, review: 'unchecked' as const };
    expect(matchesFilters(summary({ review: { checked: 7, paragraphs: 20 } }), unchecked)).toBe(true);
    expect(matchesFilters(summary({ review: { checked: 20, paragraphs: 20 } }), unchecked)).toBe(false);
    // A transcript with nothing to check (still running, or no speech) is not on the to-do list.
    expect(matchesFilters(summary({ review: { checked: 0, paragraphs: 0 } }), unchecked)).toBe(false);
    expect(matchesFilters(summary({ review: { checked: 20, paragraphs: 20 } }), emptyFilters)).toBe(true);
    // Together with the other filters, not instead of them.
    expect(
      matchesFilters(summary({ review: { checked: 1, paragraphs: 20 } }), { ...unchecked, tag: 'council' }),
    ).toBe(false);
  });

  it('shows each transcript’s progress and its corrections', () => {
    expect(reviewLabel(summary({ review: { checked: 7, paragraphs: 20 } }))).toBe('Checked 7/20');
    expect(reviewLabel(summary({ review: { checked: 20, paragraphs: 20 } }))).toBe('Fully checked');
    expect(reviewLabel(summary({ review: { checked: 0, paragraphs: 0 } }))).toBe('');
    expect(correctionsLabel(summary({ corrections: 3 }))).toBe('3 corrections');
    expect(correctionsLabel(summary({ corrections: 1 }))).toBe('1 correction');
    expect(correctionsLabel(summary({ corrections: 0 }))).toBe('');
  });
});

describe('languageShortName', () => {
  it('names the language without its region, so a narrow column reads it whole', () => {
    expect(languageShortName('en_us')).toBe('English');
    expect(languageShortName('pt-BR')).toBe('Portuguese');
    expect(languageShortName('fr')).toBe('French');
  });

  it('shows what the service sent for a code it cannot name', () => {
    expect(languageShortName('xx_zz')).toBe('xx_zz');
    expect(languageShortName('!!')).toBe('!!');
  });
});
