import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { SseParser, type SseEvent } from './sse-parser';

const encoder = new TextEncoder();

function parseChunks(chunks: (Uint8Array | string)[]): SseEvent[] {
  const parser = new SseParser();
  const events = chunks.flatMap((chunk) => parser.push(chunk));
  return [...events, ...parser.end()];
}

/** Every way of cutting `bytes` once, and the bytes one at a time. */
function everySplit(bytes: Uint8Array): Uint8Array[][] {
  const splits: Uint8Array[][] = [];
  for (let at = 0; at <= bytes.length; at++) splits.push([bytes.subarray(0, at), bytes.subarray(at)]);
  splits.push([...bytes].map((byte) => Uint8Array.of(byte)));
  return splits;
}

describe('the server-sent events parser', () => {
  it('reads fields, multi-line data, comments, ids and named events', () => {
    const events = parseChunks([
      ': keep-alive\n',
      'event: update\nid: 7\ndata: first line\ndata:second line\n\n',
      'data: {"a": 1}\n\n',
      'retry: 3000\nunknown: field\ndata\n\n',
    ]);
    expect(events).toEqual([
      { event: 'update', data: 'first line\nsecond line', id: '7' },
      { event: 'message', data: '{"a": 1}', id: '7' },
      { event: 'message', data: '', id: '7' },
    ]);
  });

  it('accepts LF, CRLF and CR line endings, even with a CRLF cut between two chunks', () => {
    expect(parseChunks(['data: a\r\n\r\ndata: b\r\rdata: c\n\n'])).toEqual(
      ['a', 'b', 'c'].map((data) => ({ event: 'message', data, id: undefined })),
    );
    expect(parseChunks(['data: a\r', '\n\r', '\ndata: b\r', '\r'])).toEqual(
      ['a', 'b'].map((data) => ({ event: 'message', data, id: undefined })),
    );
  });

  it('drops an event that never got its blank line, and a blank line without data', () => {
    expect(parseChunks(['\n\nevent: x\n\ndata: complete\n\ndata: cut off'])).toEqual([
      { event: 'message', data: 'complete', id: undefined },
    ]);
  });

  it('hands back each event as soon as its blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push('data: one')).toEqual([]);
    expect(parser.push('\n')).toEqual([]);
    expect(parser.push('\n').map((event) => event.data)).toEqual(['one']);
    expect(parser.push('data: two\n\ndata: thr').map((event) => event.data)).toEqual(['two']);
  });

  it('gives the same events whatever the chunk boundaries of a hand-made stream', () => {
    const stream = encoder.encode(
      '\uFEFF: hi\r\nevent: note\r\ndata: café — naïve 🚀\r\n\r\ndata: x\rdata: y\r\rid: 9\ndata: {"ü": "日本"}\n\n',
    );
    const whole = parseChunks([stream]);
    expect(whole.map((event) => event.data)).toEqual(['café — naïve 🚀', 'x\ny', '{"ü": "日本"}']);
    for (const chunks of everySplit(stream)) expect(parseChunks(chunks)).toEqual(whole);
  });
});

describe('the parser on a recorded gateway stream', () => {
  let emulator: RunningEmulator;
  let recorded: Uint8Array;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, speed: 100 });
    const response = await fetch(`${emulator.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: emulator.options.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-5',
        stream: true,
        messages: [{ role: 'user', content: '🚢 Résumé du café — « naïve » plans?' }],
      }),
    });
    recorded = new Uint8Array(await response.arrayBuffer());
  });
  afterAll(() => emulator.close());

  it('parses it identically with a chunk boundary at every byte', () => {
    const whole = parseChunks([recorded]);
    expect(whole.length).toBeGreaterThan(4);
    expect(whole.at(-1)?.data).toBe('[DONE]');
    const text = whole
      .slice(0, -1)
      .map((event) => JSON.parse(event.data) as { choices: { delta: { content?: string } }[] })
      .map((chunk) => chunk.choices[0]?.delta.content ?? '')
      .join('');
    expect(text).toContain('🚢');
    for (const chunks of everySplit(recorded)) expect(parseChunks(chunks)).toEqual(whole);
  });
});
