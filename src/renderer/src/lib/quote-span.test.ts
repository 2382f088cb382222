import { describe, expect, it } from 'vitest';
import { quoteSpan } from './quote-span';

function sentence(startMs: number, text: string) {
  const words = text.split(' ').map((word, index) => ({
    text: word,
    start: startMs + index * 400,
    end: startMs + index * 400 + 350,
    confidence: 0.9,
  }));
  return { startMs, endMs: startMs + words.length * 400, words };
}

const sentences = [
  sentence(0, 'Good morning, thank you for coming.'),
  sentence(3000, 'The ferry contract was signed in March, after a long delay.'),
];

describe('quoteSpan', () => {
  it('spans the quote’s words from where it starts, ignoring case and punctuation', () => {
    expect(quoteSpan(sentences, 'the ferry contract was signed in March', 3000)).toEqual({
      startMs: 3000,
      endMs: 3000 + 6 * 400 + 350,
    });
  });

  it('allows a start a word off and a word the model dropped', () => {
    expect(quoteSpan(sentences, 'ferry contract signed in March', 3000)).toEqual({
      startMs: 3400,
      endMs: 3000 + 6 * 400 + 350,
    });
  });

  it('falls back to the sentence spoken then when the words do not match', () => {
    expect(quoteSpan(sentences, 'Something nobody said at all', 3500)).toEqual({
      startMs: 3000,
      endMs: 7400,
    });
    expect(quoteSpan([], 'anything', 0)).toBeUndefined();
  });
});
