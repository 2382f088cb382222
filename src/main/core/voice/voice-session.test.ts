import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { voiceSessionRecords } from '../../../../test/emulator/voice/index';
import { queueUtterance, tone, utterance } from '../../../../test/emulator/voice/voice-test-client';
import { VerbatimError } from '../../../shared/errors';
import { clockOf, systemClock } from '../../base/clock';
import { HttpClient } from '../http/http-client';
import { voiceAddress } from './voice-address';
import type { SessionConfig } from './voice-protocol';
import { VoiceSession, type VoiceSessionOptions } from './voice-session';
import type { VoiceSocketFactory } from './voice-socket';
import { EventLog, MemorySink, recordingSocketFactory } from './voice-session.test-kit';
import { fetchVoiceToken } from './voice-token';

const key = 'voice-session-key';
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 10, key });
});
afterAll(() => emulator.close());

const config: SessionConfig = {
  systemPrompt: 'You help a reporter find quotes.',
  greeting: '',
  vadThreshold: 0.05,
  voice: 'sage',
  volume: 80,
  tools: [
    {
      name: 'search_library',
      description: 'Full-text search over the library.',
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    },
  ],
};

const longGreeting = 'A long greeting that the reporter will interrupt halfway through. '.repeat(4).trim();

const running: VoiceSession[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((session) => session.stop()));
  await fetch(`${emulator.url}/__admin/reset`, { method: 'POST' });
});

function session(overrides: Partial<VoiceSessionOptions> = {}) {
  const log = new EventLog();
  const recorder = recordingSocketFactory();
  const sink = new MemorySink();
  const voice = new VoiceSession({
    socketUrl: voiceAddress(emulator.url).socketUrl,
    auth: { kind: 'key', apiKey: key },
    config,
    socketFactory: recorder.factory,
    sink,
    onEvent: log.listener,
    headphones: true,
    reconnectInitialDelayMs: 50,
    ...overrides,
  });
  running.push(voice);
  return { voice, log, recorder, sink };
}

function record(sessionId: string) {
  return voiceSessionRecords(emulator.url).find((entry) => entry.session_id === sessionId);
}

describe('starting a session', () => {
  it('connects with the key as a bearer token, configures first and streams only after session.ready', async () => {
    const { voice, log, recorder } = session();
    voice.capture(tone(200)); // before start: nowhere to go, and never sent later
    const id = await voice.start();
    expect(id).toMatch(/\S/);
    expect(log.states).toEqual(['connecting', 'configuring', 'ready', 'listening']);
    expect(recorder.sent[0]).toEqual({
      type: 'session.update',
      session: {
        system_prompt: config.systemPrompt,
        greeting: '',
        input: { format: { encoding: 'audio/pcm' }, turn_detection: { vad_threshold: 0.05 } },
        output: { voice: 'sage', format: { encoding: 'audio/pcm' }, volume: 80 },
        tools: [{ type: 'function', ...config.tools[0] }],
      },
    });
    voice.capture(tone(100));
    await expect.poll(() => record(id)?.input_audio_bytes).toBe(4800);
    expect(voice.stats).toEqual({ sentChunks: 2, sentBytes: 4800, droppedBytes: 9600 });
    expect(recorder.sent.map((message) => message.type)).toEqual([
      'session.update',
      'input.audio',
      'input.audio',
    ]);
  });

  it('speaks the greeting into the sink and goes back to listening', async () => {
    const { voice, log, sink } = session({ config: { ...config, greeting: 'Hello, newsroom.' } });
    await voice.start();
    const transcript = await log.next('agent-transcript');
    await log.next('reply-done');
    expect(transcript).toMatchObject({ text: 'Hello, newsroom.', interrupted: false });
    // One 50 ms chunk of 24 kHz PCM16 per character of the reply.
    expect(sink.bytes).toBe('Hello, newsroom.'.length * 2400);
    await expect.poll(() => voice.state).toBe('listening');
    expect(log.states).toContain('agent-speaking');
  });

  it('fails fast and clearly when the key is refused (401)', async () => {
    const { voice, log } = session({ auth: { kind: 'key', apiKey: 'wrong' } });
    const started = Date.now();
    await expect(voice.start()).rejects.toMatchObject({
      code: 'unauthorized',
      message: /refused the API key/,
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(log.states).toEqual(['connecting', 'closed']);
  });

  it('fails fast when nothing listens at the address', async () => {
    const port = await freePort();
    const { voice } = session({ socketUrl: `ws://127.0.0.1:${port}/v1/ws` });
    await expect(voice.start()).rejects.toMatchObject({ code: 'network', message: /refused the connection/ });
  });

  it('fails fast when the host name does not resolve', async () => {
    const { voice } = session({ socketUrl: 'ws://voice.verbatim-test.invalid/v1/ws' });
    await expect(voice.start()).rejects.toMatchObject({ code: 'network', message: /Can't find/ });
  });

  it('refuses a bad configuration with the service code and message', async () => {
    const { voice } = session({ config: { ...config, volume: 400 } });
    const failure = voice.start();
    await expect(failure).rejects.toBeInstanceOf(VerbatimError);
    await expect(failure).rejects.toMatchObject({ message: /invalid_session_config.*volume/ });
    expect(voice.state).toBe('closed');
  });

  it('opens with a one-time token from GET /v1/token in the token query parameter', async () => {
    const address = voiceAddress(emulator.url);
    const http = new HttpClient({
      service: 'voice assistant',
      baseUrl: new URL(address.tokenUrl).origin,
      apiKey: () => key,
      authStyle: 'raw',
      fetch,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      now: Date.now,
      random: Math.random,
    });
    const { voice, recorder } = session({ auth: { kind: 'token', token: () => fetchVoiceToken(http) } });
    await voice.start();
    expect(recorder.urls[0]).toMatch(/\/v1\/ws\?token=\S+/);
    // One-time: a reconnect asks for a fresh token, and resumes with it.
    recorder.sockets[0]!.terminate();
    await expect.poll(() => recorder.urls.length, { timeout: 5000 }).toBe(2);
    await expect.poll(() => voice.state, { timeout: 5000 }).toBe('listening');
    expect(recorder.urls).toHaveLength(2);
    expect(recorder.urls[1]).not.toBe(recorder.urls[0]);
  });
});

describe('a conversation', () => {
  it('shows the user transcript as deltas then final, and the agent reply', async () => {
    const { voice, log } = session();
    await voice.start();
    await queueUtterance(emulator.url, 'what did the mayor say');
    voice.capture(utterance(1000));
    const final = await log.next('user-transcript', (event) => event.final);
    expect(final.text).toBe('what did the mayor say');
    const deltas = log.of('user-transcript').filter((event) => !event.final);
    expect(deltas.length).toBeGreaterThan(0);
    expect(final.text.startsWith(deltas[0]!.text)).toBe(true);
    const reply = await log.next('agent-transcript');
    expect(reply.text).toMatch(/You said: what did the mayor say\.$/);
    await log.next('reply-done');
    expect(log.states).toEqual(
      expect.arrayContaining(['user-speaking', 'thinking', 'agent-speaking', 'listening']) as unknown,
    );
    const order = log.states.slice(log.states.indexOf('user-speaking'));
    expect(order.slice(0, 3)).toEqual(['user-speaking', 'thinking', 'agent-speaking']);
  });

  it('runs a tool the agent calls and sends the result at reply.done', async () => {
    const calls: { name: string; args: unknown }[] = [];
    const { voice, log, recorder } = session({
      runTool: (name, args) => {
        calls.push({ name, args });
        return Promise.resolve({ quotes: ['the ferry contract is signed'] });
      },
    });
    await voice.start();
    await queueUtterance(emulator.url, 'search library ferry contract');
    voice.capture(utterance(1000));
    const call = await log.next('tool-call');
    expect(call).toMatchObject({ name: 'search_library', arguments: { query: 'ferry contract' } });
    const result = await log.next('tool-result');
    expect(result).toMatchObject({ callId: call.callId, sent: true });
    const done = log.events.findIndex((event) => event.type === 'reply-done');
    const resultIndex = log.events.indexOf(result);
    expect(done).toBeGreaterThanOrEqual(0);
    expect(done).toBeLessThan(resultIndex);
    expect(recorder.sent).toContainEqual({
      type: 'tool.result',
      call_id: call.callId,
      result: JSON.stringify({ quotes: ['the ferry contract is signed'] }),
    });
    const followUp = await log.next('agent-transcript', (event) => /says/.test(event.text));
    expect(followUp.text).toContain('search library says: 1 quote: the ferry contract is signed.');
    expect(calls).toEqual([{ name: 'search_library', args: { query: 'ferry contract' } }]);
  });

  it.each([
    {
      case: 'a tool that answers with an error',
      runTool: () => Promise.resolve({ error: 'search_library was not run: query is missing.' }),
      said: 'search_library was not run: query is missing.',
    },
    {
      case: 'a tool that throws',
      runTool: () => Promise.reject(new Error('The library is closed.')),
      said: 'search_library failed: The library is closed.',
    },
  ])('sends the agent a sentence, never JSON, from $case', async ({ runTool, said }) => {
    const { voice, log, recorder } = session({ runTool });
    await voice.start();
    await queueUtterance(emulator.url, 'search library ferry contract');
    voice.capture(utterance(1000));
    const call = await log.next('tool-call');
    expect(await log.next('tool-result')).toMatchObject({ callId: call.callId, result: said, sent: true });
    expect(recorder.sent).toContainEqual({ type: 'tool.result', call_id: call.callId, result: said });
    const followUp = await log.next('agent-transcript', (event) => /says/.test(event.text));
    expect(followUp.text).toContain(`search library says: ${said}`);
  });

  it('barges in: speech flushes the queued reply audio at once and the reply ends interrupted', async () => {
    const { voice, log, sink } = session({
      config: { ...config, greeting: longGreeting },
    });
    await voice.start();
    await log.next('state', (event) => event.state === 'agent-speaking');
    voice.capture(utterance(600));
    await log.next('state', (event) => event.state === 'user-speaking');
    expect(sink.flushes).toBeGreaterThanOrEqual(1);
    const transcript = await log.next('agent-transcript');
    expect(transcript.interrupted).toBe(true);
    expect((await log.next('reply-done')).interrupted).toBe(true);
    expect(sink.bytes).toBeLessThan(longGreeting.length * 2400);
  });

  it('asks for a reply with reply.create and applies a later session.update', async () => {
    const { voice, log, recorder } = session();
    await voice.start();
    voice.createReply('The press conference starts at noon');
    const reply = await log.next('agent-transcript');
    expect(reply.text).toMatch(/The press conference starts at noon\.$/);
    await voice.update({ vadThreshold: 0.1, volume: 40 });
    expect(recorder.sent.at(-1)).toMatchObject({
      type: 'session.update',
      session: { input: { turn_detection: { vad_threshold: 0.1 } }, output: { volume: 40 } },
    });
    await expect(voice.update({ vadThreshold: 3 })).rejects.toMatchObject({
      message: /invalid_session_config/,
    });
  });

  it('surfaces every session.error with its code and message', async () => {
    const { voice, log, recorder } = session();
    await voice.start();
    // Frames this client never sends on its own, pushed through its socket to provoke each code.
    const frames: [string, string][] = [
      ['invalid_json', '{not json'],
      ['unknown_message_type', JSON.stringify({ type: 'hello' })],
      ['invalid_message', JSON.stringify({ type: 'tool.result', call_id: 1 })],
      ['session_already_started', JSON.stringify({ type: 'session.resume', session_id: 'x' })],
      ['invalid_audio', JSON.stringify({ type: 'input.audio', audio: 'AAA' })],
      ['unknown_call_id', JSON.stringify({ type: 'tool.result', call_id: 'nope', result: '' })],
      ['invalid_session_config', JSON.stringify({ type: 'session.update', session: { colour: 'red' } })],
    ];
    for (const [code, frame] of frames) {
      const error = log.next('error', (event) => event.code === code, 3000);
      recorder.sockets[0]!.send(frame);
      expect((await error).message).toMatch(/\S/);
    }
    expect(voice.state).toBe('listening');
  });

  it('reports session_not_ready from a server that answers audio before the session', async () => {
    // session_not_ready cannot come from this client (it waits for session.ready); a raw socket
    // through the same factory shows the code still reaches the events.
    const { factory } = recordingSocketFactory();
    const log = new EventLog();
    const voice = new VoiceSession({
      socketUrl: voiceAddress(emulator.url).socketUrl,
      auth: { kind: 'key', apiKey: key },
      config,
      socketFactory: (request, handlers) => {
        const socket = factory(request, {
          ...handlers,
          open: () => {
            socket.send(JSON.stringify({ type: 'reply.create' }));
            handlers.open();
          },
        });
        return socket;
      },
      onEvent: log.listener,
    });
    running.push(voice);
    const error = log.next('error', (event) => event.code === 'session_not_ready');
    await voice.start();
    expect((await error).message).toMatch(/session\.update first/);
  });
});

describe('dropped connections', () => {
  it('resumes the same session after a forced disconnect and never sends audio twice', async () => {
    const { voice, log, recorder } = session();
    const id = await voice.start();
    voice.capture(tone(500));
    // A terminated socket loses what it had not written yet; let the agent have it first.
    await expect.poll(() => record(id)?.input_audio_bytes).toBe(24_000);
    recorder.sockets[0]!.terminate();
    await log.next('state', (event) => event.state === 'reconnecting');
    voice.capture(tone(300)); // captured while disconnected: dropped
    const resumed = await log.next('session');
    expect(resumed).toEqual({ type: 'session', sessionId: id, resumed: true });
    expect(recorder.sent.filter((message) => message.type === 'session.resume')).toEqual([
      { type: 'session.resume', session_id: id },
    ]);
    await queueUtterance(emulator.url, 'after the drop');
    voice.capture(utterance(800));
    expect((await log.next('user-transcript', (event) => event.final)).text).toBe('after the drop');
    const stats = voice.stats;
    expect(record(id)?.input_audio_bytes).toBe(stats.sentBytes);
    expect(stats.droppedBytes).toBe(14_400);
  });

  it('starts a fresh session when the server no longer knows the dropped one', async () => {
    const { voice, log, recorder } = session();
    const id = await voice.start();
    recorder.sockets[0]!.terminate();
    await log.next('state', (event) => event.state === 'reconnecting');
    await fetch(`${emulator.url}/__admin/reset`, { method: 'POST' }); // forgets every session
    await log.next('error', (event) => event.code === 'session_not_found');
    const fresh = await log.next('session');
    expect(fresh.resumed).toBe(false);
    expect(id).toMatch(/\S/);
    expect(recorder.sent.map((message) => message.type)).toEqual([
      'session.update',
      'session.resume',
      'session.update',
    ]);
    expect(voice.state).toBe('listening');
  });

  it('after the 30 s grace window, reconnects with a new session instead of resuming', async () => {
    let offset = 0;
    const { voice, log, recorder } = session({
      clock: clockOf({ ...systemClock, now: () => Date.now() + offset }),
    });
    await voice.start();
    recorder.sockets[0]!.terminate();
    await log.next('state', (event) => event.state === 'reconnecting');
    offset = 31_000;
    expect((await log.next('session')).resumed).toBe(false);
    expect(recorder.sent.map((message) => message.type)).toEqual(['session.update', 'session.update']);
  });
});

describe('closing', () => {
  it('closes cleanly against the agent', async () => {
    const { voice, log, sink } = session();
    await voice.start();
    await voice.stop();
    expect(log.states.at(-1)).toBe('closed');
    expect(sink.closed).toBe(true);
  });

  it('is bounded in time when the server never completes the close handshake', async () => {
    let terminated = false;
    const deaf: VoiceSocketFactory = (_request, handlers) => {
      setTimeout(() => handlers.open(), 0);
      return {
        send: (text) => {
          if (text.includes('session.update')) {
            setTimeout(() =>
              handlers.message(JSON.stringify({ type: 'session.ready', session_id: 'sess_deaf' })),
            );
          }
        },
        close: () => undefined,
        terminate: () => {
          terminated = true;
        },
      };
    };
    const { voice } = session({ socketFactory: deaf, closeTimeoutMs: 100 });
    await voice.start();
    const started = Date.now();
    await voice.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(terminated).toBe(true);
    expect(voice.state).toBe('closed');
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
