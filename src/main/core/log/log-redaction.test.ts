import { describe, expect, it } from 'vitest';
import { createLogger, MemorySink } from './logger';
import { createScrubber } from './log-redaction';

/** A logger writing to memory, with the keys a secrets store would hold. */
function logged(secrets: string[] = []): { sink: MemorySink; log: ReturnType<typeof createLogger> } {
  const sink = new MemorySink();
  return { sink, log: createLogger({ sinks: [sink], level: 'debug', secrets: () => secrets, now: () => 0 }) };
}

const transcriptionKey = 'f3a1c2d4e5b6a7980c1d2e3f4a5b6c7d';
const catalogKey = 'sk-or-v1-0123456789abcdefABCDEF0123456789';
const spoken = 'The minister said the ferry contract was signed before the tender closed';

describe('the log never holds a key', () => {
  it('hides every value the secrets store holds, in the message and in the details', () => {
    const { sink, log } = logged(['my-own-key-42', 'short']);
    log.error('the service refused my-own-key-42', {
      header: 'x my-own-key-42 y',
      nested: [{ note: 'used my-own-key-42' }],
    });
    const text = sink.text();
    expect(text).not.toContain('my-own-key-42');
    expect(text).toContain('the service refused [redacted]');
    // Too short to search for without masking ordinary words; keys are far longer.
    expect(text).not.toContain('[redacted]hort');
  });

  it('hides a key set after the logger was made (the store is read at each write)', () => {
    const held: string[] = [];
    const sink = new MemorySink();
    const log = createLogger({ sinks: [sink], secrets: () => held });
    held.push('entered-later-key');
    log.warn('retrying with entered-later-key');
    expect(sink.text()).not.toContain('entered-later-key');
  });

  it('hides Authorization headers, Bearer credentials, and key or token fields', () => {
    const { sink, log } = logged();
    log.error('request failed', {
      headers: { Authorization: 'Bearer abc.def.ghi', 'x-api-key': 'k-123456' },
      apiKey: 'plain-key',
      transcriptionKey: 'another-plain-key',
      token: 'temp-token-value',
      key: 'k',
      transcriptionKeySet: true,
      url: 'wss://voice.example/v1?token=temp-token-2&sample_rate=24000',
    });
    log.info('Authorization: raw-key-value sent to https://api.example');
    log.info('sent with bearer eyJhbGciOiJIUzI1NiJ9.payload.sig');
    const text = sink.text();
    for (const secret of [
      'abc.def.ghi',
      'k-123456',
      'plain-key',
      'another-plain-key',
      'temp-token-value',
      '"key":"k"',
      'temp-token-2',
      'raw-key-value',
      'eyJhbGciOiJIUzI1NiJ9',
    ]) {
      expect(text, secret).not.toContain(secret);
    }
    // Whether a key is set is worth knowing; what else the address says is kept.
    expect(text).toContain('"transcriptionKeySet":true');
    expect(text).toContain('sample_rate=24000');
  });

  it('hides keys inside JSON carried in a text (a serialised request, a service error body)', () => {
    const { sink, log } = logged();
    log.error('the gateway said', '{"error":"bad request","api_key":"gw-secret-1","token": "t-2"}');
    const text = sink.text();
    expect(text).not.toContain('gw-secret-1');
    expect(text).not.toContain('t-2');
    expect(text).toContain('bad request');
  });

  it('hides strings shaped like keys, a password in an address, and keys in an error stack', () => {
    const { sink, log } = logged();
    log.error(`refused ${transcriptionKey} and ${catalogKey}`);
    log.warn('could not reach https://reporter:hunter2@transcribe.example/v2');
    const error = new Error(`key ${transcriptionKey} was refused`);
    log.error('upload failed', error);
    const text = sink.text();
    expect(text).not.toContain(transcriptionKey);
    expect(text).not.toContain(catalogKey);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('reporter:');
    expect(text).toContain('transcribe.example/v2');
    // The stack survives, without the key.
    expect(text).toContain('at ');
  });
});

describe("the log never holds a transcript's text", () => {
  it('reduces content fields of an object to their size', () => {
    const { sink, log } = logged();
    log.info('saved a transcript', {
      id: 'job-1',
      text: spoken,
      words: [{ text: 'The' }, { text: 'minister' }],
      sentences: [{ text: spoken }],
      summary: spoken,
      chapters: [{ gist: spoken }],
      count: 2,
    });
    const text = sink.text();
    expect(text).not.toContain('minister');
    expect(text).toContain('"id":"job-1"');
    expect(text).toContain(`"text":"[${spoken.length} chars]"`);
    expect(text).toContain('"words":"[2 items]"');
    expect(text).toContain('"count":2');
  });

  it("reduces content fields in JSON inside a text (a service's reply, the renderer's details)", () => {
    const { sink, log } = logged();
    const reply = JSON.stringify({
      id: 'tr-9',
      status: 'completed',
      text: spoken,
      words: [
        { text: 'The', start: 0 },
        { text: 'ferry "contract]', start: 5 },
      ],
      utterances: null,
    });
    log.warn('unexpected reply', reply);
    log.warn(`a reply cut short: {"id":"tr-9","text":"${spoken.slice(0, 30)}`);
    const text = sink.text();
    expect(text).not.toContain('minister');
    expect(text).not.toContain('ferry');
    expect(text).toContain('"id":"tr-9"');
    expect(text).toContain('"words":"[2 items]"');
    expect(text).toContain('"status":"completed"');
  });

  it('reduces content in an error’s details, and in the values of an Ask or voice request', () => {
    const { sink, log } = logged();
    const failure = Object.assign(new Error('gateway failed'), {
      details: { question: 'Who signed the ferry contract?', model: 'small' },
    });
    log.error('ask failed', failure);
    log.info('tool call', { name: 'search_library', arguments: { query: 'ferry contract' } });
    const text = sink.text();
    expect(text).not.toContain('ferry');
    expect(text).toContain('"model":"small"');
    expect(text).toContain('search_library');
  });

  it('keeps ids, counts and ordinary messages as they are', () => {
    const scrubber = createScrubber();
    const line = 'job 0b7d7e5c-8f0e-4f4e-9d64-1a2b3c4d5e6f: 3 sentences stored, 2 checks';
    expect(scrubber.text(line)).toBe(line);
  });
});

describe('the logger bounds what it writes', () => {
  it('cuts a long message and long details, saying how much was left out', () => {
    const { sink, log } = logged();
    log.info('x'.repeat(2500), 'y'.repeat(25_000));
    const record = sink.records[0]!;
    expect(record.message.length).toBeLessThan(2100);
    expect(record.message).toContain('(500 more characters)');
    expect(record.details!.length).toBeLessThan(20_100);
  });

  it('writes nothing below its level and survives a circular detail', () => {
    const sink = new MemorySink();
    const log = createLogger({ sinks: [sink], level: 'warn' });
    log.info('not written');
    log.debug('not written either');
    const loop: Record<string, unknown> = { id: 'a' };
    loop.self = loop;
    log.warn('a loop', loop);
    expect(sink.records.map((record) => record.message)).toEqual(['a loop']);
    expect(sink.records[0]!.details).toContain('[circular]');
  });

  it('never throws, even when a sink does', () => {
    const log = createLogger({
      sinks: [
        {
          write: () => {
            throw new Error('disk gone');
          },
        },
      ],
    });
    expect(() => log.error('still fine')).not.toThrow();
  });

  it('marks each line with its scope', () => {
    const { sink, log } = logged();
    log.child('main').child('ipc').error('transcripts.get failed');
    expect(sink.records[0]!.scope).toBe('main.ipc');
    expect(sink.text()).toBe('1970-01-01T00:00:00.000Z ERROR [main.ipc] transcripts.get failed\n');
  });
});
