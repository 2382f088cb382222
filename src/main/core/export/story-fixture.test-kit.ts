import type { Story, StoryItem } from '../../../shared/highlights';

/**
 * A story of quotes from two interviews with the journalist's text between them: a heading,
 * a paragraph written over two lines, Greek, and a quote whose words were deleted; quotes
 * checked against the audio by a colleague and by the reporter, and one not checked.
 */
export const ferryInterviewTitle = 'Interview about the ferry contract';
export const unionTitle = "Harbour workers' union";

type QuoteItem = Extract<StoryItem, { kind: 'quote' }>;

export function storyQuote(id: number, fields: Partial<QuoteItem> = {}): QuoteItem {
  return {
    id,
    kind: 'quote',
    highlightId: id,
    text: 'We signed the ferry contract in March.',
    speakerName: 'Mayor Elena Alvarez',
    transcriptId: 'ferry',
    transcriptTitle: ferryInterviewTitle,
    recordedAt: Date.UTC(2025, 2, 14, 10, 30),
    languageCode: 'en',
    startMs: 751_000,
    endMs: 754_200,
    missing: false,
    checked: null,
    ...fields,
  };
}

export function ferryStory(): Story {
  const items: StoryItem[] = [
    {
      id: 1,
      kind: 'text',
      text: '# The ferry contract\nThe council signed in March.\nIt cost more than planned.\n\nA second paragraph.',
    },
    // Checked against the audio by a colleague (a copy kept from the newsroom), then by the reporter; the third not.
    storyQuote(2, { checked: { by: 'ana', at: Date.UTC(2025, 2, 16, 12) } }),
    storyQuote(3, {
      text: 'It was the only bid.',
      startMs: 905_000,
      endMs: 906_500,
      checked: { by: null, at: Date.UTC(2025, 2, 15, 8) },
    }),
    { id: 4, kind: 'text', text: 'Critics disagree. Καλημέρα.' },
    storyQuote(5, {
      text: 'The contract was rushed.',
      speakerName: null,
      transcriptId: 'union',
      transcriptTitle: unionTitle,
      recordedAt: Date.UTC(2025, 2, 20, 9),
      startMs: 65_000,
      endMs: 67_000,
      missing: true,
    }),
  ];
  return { id: 7, name: 'Ferry contract story', createdAt: 0, updatedAt: 0, quotes: 3, items };
}
