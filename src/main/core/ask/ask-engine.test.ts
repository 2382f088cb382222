import { describe, expect, it } from 'vitest';
import type { AskEntry } from '../../../shared/ask';
import { historyMessages, readStructured, systemPrompt } from './ask-engine';
import { alignTimes } from './quote-times';

const base = { at: 1 };

describe('the conversation as gateway messages', () => {
  it('groups tool calls into one assistant message with their results, and leaves failed answers out', () => {
    const answer = (id: string, status: 'complete' | 'failed', text: string): AskEntry => ({
      kind: 'answer',
      id,
      ...base,
      status,
      text,
      format: 'text',
      requestedModel: 'm',
      model: 'm',
      usage: null,
      responseTimeMs: null,
      requestId: null,
    });
    const tool = (id: string, callId: string): AskEntry => ({
      kind: 'tool',
      id,
      ...base,
      callId,
      name: 'search_library',
      arguments: '{"query":"ferry"}',
      result: '{"total":0}',
    });
    const history: AskEntry[] = [
      { kind: 'question', id: 'q1', ...base, text: 'First?', format: 'text' },
      answer('a1', 'failed', 'partial'),
      { kind: 'question', id: 'q2', ...base, text: 'Second?', format: 'text' },
      tool('t1', 'call-1'),
      tool('t2', 'call-2'),
      answer('a2', 'complete', 'Found nothing.'),
    ];
    expect(historyMessages(history)).toEqual([
      { role: 'user', content: 'First?' },
      { role: 'user', content: 'Second?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: ['call-1', 'call-2'].map((id) => ({
          id,
          type: 'function',
          function: { name: 'search_library', arguments: '{"query":"ferry"}' },
        })),
      },
      { role: 'tool', tool_call_id: 'call-1', content: '{"total":0}' },
      { role: 'tool', tool_call_id: 'call-2', content: '{"total":0}' },
      { role: 'assistant', content: 'Found nothing.' },
    ]);
  });

  it('puts the transcript tag, not the transcript, in the system prompt', () => {
    expect(systemPrompt('Ferry "deal"')).toContain('{{ transcript }}');
    expect(systemPrompt('Ferry "deal"')).toContain('titled "Ferry "deal""');
  });
});

describe('structured answers', () => {
  it('accepts an answer matching its format and explains one that does not', () => {
    const quotes = { quotes: [{ quote: 'We had to act.', speaker: 'Ortiz', start_ms: 42_000 }] };
    expect(readStructured('quotes', JSON.stringify(quotes))).toEqual({ value: quotes });
    expect(readStructured('quotes', '{"quotes": [')).toMatchObject({
      problem: expect.stringContaining('could not be read') as string,
    });
    expect(readStructured('claims', JSON.stringify(quotes))).toMatchObject({
      problem: expect.stringContaining('claims') as string,
    });
    expect(readStructured('json', '[1, 2]')).toEqual({ value: [1, 2] });
  });
});

describe('times of quotes', () => {
  const sentences = [
    { startMs: 0, text: 'Good morning, I’m Daniel Reyes.' },
    { startMs: 35_000, text: 'Frankly, the old ferry was a damn disgrace, and people deserved better.' },
    { startMs: 42_000, text: 'We had to act quickly.' },
  ];

  it('takes the start of the sentence a quote was found in, whatever its punctuation or accents', () => {
    const items = [
      { quote: 'the old ferry was a damn disgrace', start_ms: 999 },
      { quote: 'WE HAD TO ACT QUICKLY', start_ms: 1 },
      { quote: 'Good morning, I’m Daniel Reyes. Frankly, the old ferry…', start_ms: 7 },
      { quote: 'Nobody said this.', start_ms: 5 },
    ];
    expect(alignTimes(items, (item) => item.quote, sentences).map((item) => item.start_ms)).toEqual([
      35_000, 42_000, 0, 5,
    ]);
  });

  it('attributes a found quote to the speaker the transcript names, not the model’s guess', () => {
    const named = [
      { startMs: 0, text: 'Good morning, I’m Daniel Reyes.', speaker: 'Daniel Reyes' },
      { startMs: 9_000, text: 'Thank you, Daniel.', speaker: 'Mayor Alvarez' },
    ];
    const items = [
      { quote: 'Thank you, Daniel.', speaker: 'Gazette', start_ms: 1 },
      { quote: 'Nobody said this.', speaker: 'Gazette', start_ms: 5 },
    ];
    expect(alignTimes(items, (item) => item.quote, named)).toEqual([
      { quote: 'Thank you, Daniel.', speaker: 'Mayor Alvarez', start_ms: 9_000 },
      { quote: 'Nobody said this.', speaker: 'Gazette', start_ms: 5 },
    ]);
  });
});
