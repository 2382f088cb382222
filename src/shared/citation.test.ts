import { describe, expect, it } from 'vitest';
import { formatCitation, formatCopiedQuote } from './citation';

const quote = {
  speakerName: 'Mayor Elena Alvarez',
  transcriptId: 'ferry',
  transcriptTitle: 'Interview about the ferry contract',
  recordedAt: Date.UTC(2025, 2, 14, 10, 30),
  startMs: 751_000,
};

describe('formatCitation', () => {
  it('cites the speaker, the title, the recording’s day and the time in the recording', () => {
    expect(formatCitation(quote, undefined, 'UTC')).toBe(
      'Mayor Elena Alvarez, “Interview about the ferry contract”, Mar 14, 2025, 00:12:31',
    );
    expect(formatCitation({ ...quote, speakerName: '  ' }, '{speaker} ({date})', 'UTC')).toBe(
      'Unknown speaker (Mar 14, 2025)',
    );
  });

  it('says when the recording is no longer in the library', () => {
    expect(formatCitation({ ...quote, transcriptId: null }, '{speaker}, {time}', 'UTC')).toBe(
      'Mayor Elena Alvarez, 00:12:31 (recording no longer in the library)',
    );
  });
});

describe('formatCopiedQuote', () => {
  it('quotes the words in their language’s marks with the speaker and time, whitespace collapsed', () => {
    expect(formatCopiedQuote('  The ferry\n contract. ', 'Mayor Elena Alvarez', 2500, 'en_us')).toBe(
      '“The ferry contract.” — Mayor Elena Alvarez, [00:00:02]',
    );
    expect(formatCopiedQuote('Le contrat.', 'Élise', 2500, 'fr')).toBe(
      '«\u00a0Le contrat.\u00a0» — Élise, [00:00:02]',
    );
  });
});
