import { describe, expect, it } from 'vitest';
import { tone } from '../../../../test/emulator/voice/voice-test-client';
import { voiceAddress, DEFAULT_VOICE_URL } from './voice-address';
import { parseServerMessage } from './voice-protocol';
import { VoiceSession, type VoiceSessionOptions } from './voice-session';
import type { VoiceSocketHandlers } from './voice-socket';
import { EventLog, MemorySink } from './voice-session.test-kit';

/** A scripted agent: the test plays the server's messages and reads what the client sent. */
function scripted(overrides: Partial<VoiceSessionOptions> = {}) {
  const sent: { type: string; [field: string]: unknown }[] = [];
  let handlers: VoiceSocketHandlers | undefined;
  const log = new EventLog();
  const sink = new MemorySink();
  const session = new VoiceSession({
    socketUrl: 'ws://agent.test/v1/ws',
    auth: { kind: 'key', apiKey: 'k' },
    config: { systemPrompt: '', greeting: '', vadThreshold: 0.1, voice: 'v', volume: 100, tools: [] },
    socketFactory: (_request, socketHandlers) => {
      handlers = socketHandlers;
      setTimeout(() => socketHandlers.open(), 0);
      return {
        send: (text) => {
          const message = JSON.parse(text) as { type: string };
          sent.push(message);
          if (message.type === 'session.update' && sent.length === 1) {
            setTimeout(() =>
              socketHandlers.message(JSON.stringify({ type: 'session.ready', session_id: 's1' })),
            );
          }
        },
        close: () => setTimeout(() => socketHandlers.close(1000, '')),
        terminate: () => undefined,
      };
    },
    onEvent: log.listener,
    sink,
    ...overrides,
  });
  const server = (message: object): void => handlers!.message(JSON.stringify(message));
  const audioSent = () => sent.filter((message) => message.type === 'input.audio');
  const lastAudio = () => Buffer.from(String(audioSent().at(-1)?.audio), 'base64');
  return { session, sent, server, log, sink, audioSent, lastAudio };
}

const chunk = tone(50, 0.3);
const silent = (pcm: Buffer) => pcm.every((byte) => byte === 0);

describe('tool calls', () => {
  it('accepts the arguments under `args` as well as `arguments`', () => {
    expect(
      parseServerMessage(JSON.stringify({ type: 'tool.call', call_id: 'c', name: 'n', args: { q: 1 } })),
    ).toEqual({
      message: { type: 'tool.call', call_id: 'c', name: 'n', arguments: { q: 1 } },
    });
    expect(
      parseServerMessage(
        JSON.stringify({ type: 'tool.call', call_id: 'c', name: 'n', arguments: { q: 2 }, extra: 1 }),
      ),
    ).toMatchObject({ message: { arguments: { q: 2 } } });
    expect(parseServerMessage(JSON.stringify({ type: 'future.message' }))).toEqual({
      ignored: 'future.message',
    });
    expect(parseServerMessage('nope')).toHaveProperty('invalid');
    expect(parseServerMessage(JSON.stringify({ type: 'reply.audio' }))).toHaveProperty('invalid');
  });

  it('drops the pending tool results when the reply ends interrupted', async () => {
    const ran: string[] = [];
    const { session, sent, server, log } = scripted({
      runTool: (name) => {
        ran.push(name);
        return Promise.resolve('found it');
      },
    });
    await session.start();
    server({ type: 'reply.started', reply_id: 'r1' });
    server({ type: 'tool.call', call_id: 'c1', name: 'search_library', args: { query: 'ferry' } });
    server({ type: 'input.speech.started' });
    server({ type: 'reply.done', status: 'interrupted' });
    const result = await log.next('tool-result');
    expect(result).toEqual({
      type: 'tool-result',
      callId: 'c1',
      name: 'search_library',
      result: 'found it',
      sent: false,
    });
    expect(sent.some((message) => message.type === 'tool.result')).toBe(false);
    expect(ran).toEqual(['search_library']);
    await session.stop();
  });

  it('sends a failed tool as an error result rather than failing the session', async () => {
    const { session, sent, server, log } = scripted({
      runTool: () => Promise.reject(new Error('disk gone')),
    });
    await session.start();
    server({ type: 'tool.call', call_id: 'c2', name: 'read_passage', arguments: {} });
    server({ type: 'reply.done', status: 'completed' });
    await log.next('tool-result');
    expect(sent.at(-1)).toEqual({
      type: 'tool.result',
      call_id: 'c2',
      result: 'read_passage failed: disk gone',
    });
    await session.stop();
  });
});

describe('the microphone path', () => {
  it('sends silence while the agent speaks on loudspeakers, and the voice in headphones mode', async () => {
    const { session, server, lastAudio } = scripted();
    await session.start();
    session.capture(chunk);
    expect(silent(lastAudio())).toBe(false);
    server({ type: 'reply.started', reply_id: 'r1' });
    server({ type: 'reply.audio', data: tone(50).toString('base64') });
    expect(session.state).toBe('agent-speaking');
    session.capture(chunk);
    expect(silent(lastAudio())).toBe(true);
    session.setHeadphones(true);
    session.capture(chunk);
    expect(silent(lastAudio())).toBe(false);
    session.setHeadphones(false);
    server({ type: 'reply.done', status: 'completed' });
    await expect.poll(() => session.state).toBe('listening');
    session.capture(chunk);
    expect(silent(lastAudio())).toBe(false);
    await session.stop();
  });

  it('mutes, and in push-to-talk sends the voice only while the key is held', async () => {
    const { session, lastAudio, audioSent } = scripted();
    await session.start();
    session.setMuted(true);
    session.capture(chunk);
    expect(silent(lastAudio())).toBe(true);
    session.setMuted(false);
    session.setMode('push-to-talk');
    session.capture(chunk);
    expect(silent(lastAudio())).toBe(true);
    session.setTalking(true);
    session.capture(chunk);
    expect(silent(lastAudio())).toBe(false);
    session.setTalking(false);
    session.capture(chunk);
    expect(silent(lastAudio())).toBe(true);
    expect(audioSent()).toHaveLength(4);
    await session.stop();
  });

  it('publishes a level for every captured piece', async () => {
    const { session, log } = scripted();
    await session.start();
    session.capture(tone(50, 0.5));
    const level = await log.next('level');
    expect(level.peak).toBeCloseTo(0.5, 2);
    await session.stop();
  });

  it('reports a vanished audio device as an error event, not a crash', async () => {
    let fail: ((error: Error) => void) | undefined;
    const { session, log } = scripted({
      source: {
        start: (_onAudio, onError) => (fail = onError),
        stop: () => Promise.resolve(),
      },
    });
    await session.start();
    fail!(new Error('device unplugged'));
    const error = await log.next('error');
    expect(error).toMatchObject({ code: 'audio_device', message: /device unplugged/ });
    expect(session.state).toBe('listening');
    await session.stop();
  });
});

describe('the address', () => {
  it("defaults to AssemblyAI's agent and accepts a base URL or a socket URL", () => {
    expect(voiceAddress(undefined)).toEqual({
      socketUrl: DEFAULT_VOICE_URL,
      tokenUrl: 'https://agents.assemblyai.com/v1/token',
    });
    expect(voiceAddress('http://127.0.0.1:4010')).toEqual({
      socketUrl: 'ws://127.0.0.1:4010/v1/ws',
      tokenUrl: 'http://127.0.0.1:4010/v1/token',
    });
    expect(voiceAddress(' wss://voice.example/v1/ws ').tokenUrl).toBe('https://voice.example/v1/token');
  });
});
