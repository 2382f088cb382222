import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';
import { anyString, tone, VoiceTestClient } from './voice-test-client';

let emulator: RunningEmulator;
const key = 'voice-test-key';
const clients: VoiceTestClient[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 50, key });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await emulator.close();
});

async function connect(): Promise<VoiceTestClient> {
  const client = await VoiceTestClient.connect(emulator.url, { key });
  clients.push(client);
  return client;
}

async function start(session: object = {}): Promise<VoiceTestClient> {
  const client = await VoiceTestClient.start(emulator.url, key, session);
  clients.push(client);
  return client;
}

async function errorCode(client: VoiceTestClient): Promise<unknown> {
  return (await client.next('session.error')).code;
}

const weatherTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Get the weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('voice agent session set-up', () => {
  it('refuses audio, tool results and reply requests before session.ready', async () => {
    const client = await connect();
    client.send({ type: 'input.audio', audio: tone(50).toString('base64') });
    expect(await errorCode(client)).toBe('session_not_ready');
    client.send({ type: 'tool.result', call_id: 'call_1', result: 'x' });
    expect(await errorCode(client)).toBe('session_not_ready');
    client.send({ type: 'reply.create' });
    expect(await errorCode(client)).toBe('session_not_ready');
    client.send({ type: 'session.update', session: { system_prompt: 'Be brief.' } });
    expect(await client.next('session.ready')).toEqual({
      type: 'session.ready',
      session_id: anyString(),
    });
  });

  it('answers the first session.update with session.ready and later ones with session.updated', async () => {
    const client = await start({ system_prompt: 'Be brief.', tools: [weatherTool] });
    client.send({ type: 'session.update', session: { output: { volume: 40 } } });
    await client.next('session.updated');
    expect(client.received.map((message) => message.type)).toEqual(['session.ready', 'session.updated']);
  });

  it.each([
    ['an unknown field', { temperature: 0.5 }],
    ['an unsupported encoding', { input: { format: { encoding: 'audio/pcmu' } } }],
    ['another sample rate', { output: { format: { encoding: 'audio/pcm', sample_rate: 16000 } } }],
    ['a vad_threshold above 1', { input: { turn_detection: { vad_threshold: 2 } } }],
    ['a volume above 100', { output: { volume: 101 } }],
    ['a tool without a name', { tools: [{ type: 'function', description: 'x' }] }],
    ['a tool of another type', { tools: [{ ...weatherTool, type: 'retrieval' }] }],
    ['two tools of one name', { tools: [weatherTool, weatherTool] }],
    ['a system prompt that is not text', { system_prompt: 42 }],
  ])('refuses a session.update with %s, and the socket stays usable', async (_case, session) => {
    const client = await connect();
    client.send({ type: 'session.update', session });
    const error = await client.next('session.error');
    expect(error).toEqual({
      type: 'session.error',
      code: 'invalid_session_config',
      message: anyString(),
    });
    client.send({ type: 'session.update', session: {} });
    await client.next('session.ready');
  });

  it('refuses a session.update without a session object', async () => {
    const client = await connect();
    client.send({ type: 'session.update' });
    expect(await errorCode(client)).toBe('invalid_session_config');
  });

  it('keeps output.voice fixed after session.ready', async () => {
    const client = await start({ output: { voice: 'claire' } });
    client.send({ type: 'session.update', session: { output: { voice: 'ivy' } } });
    expect(await errorCode(client)).toBe('invalid_session_config');
    client.send({ type: 'session.update', session: { output: { voice: 'claire' } } });
    await client.next('session.updated');
  });
});

describe('voice agent protocol errors', () => {
  it('reports frames that are not JSON objects as invalid_json', async () => {
    const client = await start();
    client.sendRaw('{"type": "input.audio",');
    expect(await errorCode(client)).toBe('invalid_json');
    client.sendRaw('[1, 2]');
    expect(await errorCode(client)).toBe('invalid_json');
    client.sendRaw(Buffer.from([1, 2, 3, 4]));
    expect(await errorCode(client)).toBe('invalid_json');
  });

  it('reports a missing or unknown type as unknown_message_type', async () => {
    const client = await start();
    client.send({ type: 'response.create' });
    expect(await errorCode(client)).toBe('unknown_message_type');
    client.send({ audio: 'AAAA' });
    expect(await errorCode(client)).toBe('unknown_message_type');
  });

  it('reports known messages with bad fields as invalid_message', async () => {
    const client = await start();
    client.send({ type: 'tool.result', result: 'sunny' });
    expect(await errorCode(client)).toBe('invalid_message');
    client.send({ type: 'input.audio', audio: 42 });
    expect(await errorCode(client)).toBe('invalid_message');
    client.send({ type: 'reply.create', instructions: 'Hi.', voice: 'ivy' });
    expect(await errorCode(client)).toBe('invalid_message');
  });

  it('reports audio that is not base64 PCM16 as invalid_audio', async () => {
    const client = await start();
    for (const audio of ['not base64!', '', 'AAA', Buffer.from([1, 2, 3]).toString('base64')]) {
      client.send({ type: 'input.audio', audio });
      expect(await errorCode(client)).toBe('invalid_audio');
    }
  });

  it('reports a tool.result for no pending call as unknown_call_id', async () => {
    const client = await start({ tools: [weatherTool] });
    client.send({ type: 'tool.result', call_id: 'call_nobody', result: 'sunny' });
    expect(await errorCode(client)).toBe('unknown_call_id');
  });

  it('refuses session.resume on a connection that already has a session', async () => {
    const client = await start();
    const ready = client.received[0]!;
    client.send({ type: 'session.resume', session_id: ready.session_id });
    expect(await errorCode(client)).toBe('session_already_started');
  });
});
