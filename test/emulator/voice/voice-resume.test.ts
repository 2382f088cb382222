import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';
import { voiceSessionRecords } from './index';
import type { VoiceSessionRecord } from './voice-session';
import {
  anyString,
  decodedAudio,
  peak,
  queueUtterance,
  silence,
  utterance,
  VoiceTestClient,
} from './voice-test-client';

const key = 'voice-test-key';

function withEmulator(speed: number): () => RunningEmulator {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, speed, key });
  });
  afterAll(async () => {
    await emulator.close();
  });
  return () => emulator;
}

const clients: VoiceTestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(url: string): Promise<VoiceTestClient> {
  const client = await VoiceTestClient.connect(url, { key });
  clients.push(client);
  return client;
}

/** Opens a new socket and resumes `sessionId` on it; resolves with the answer. */
async function resume(url: string, sessionId: unknown): Promise<{ client: VoiceTestClient; answer: object }> {
  const client = await connect(url);
  client.send({ type: 'session.resume', session_id: sessionId });
  return { client, answer: await client.nextAny() };
}

/** Drops the connection the way a network failure would: no close handshake. */
async function drop(client: VoiceTestClient): Promise<void> {
  client.socket.terminate();
  await client.closed;
}

function recordOf(url: string, sessionId: unknown): VoiceSessionRecord | undefined {
  return voiceSessionRecords(url).find((record) => record.session_id === sessionId);
}

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('session.resume within the grace window', () => {
  const emulator = withEmulator(20);

  it('resumes a dropped session with its config and conversation, without replaying anything', async () => {
    const url = emulator().url;
    const first = await connect(url);
    first.send({
      type: 'session.update',
      session: { system_prompt: 'Resume test.', greeting: 'Welcome.', output: { volume: 50 } },
    });
    const sessionId = (await first.next('session.ready')).session_id;
    await first.next('reply.done'); // the greeting
    await queueUtterance(url, 'remember the milk');
    first.sendAudio(utterance(400));
    const before = await first.until('reply.done');
    const beforeText = String(before.find((message) => message.type === 'transcript.agent')?.text);
    const sentBytes = utterance(400).length;
    await drop(first);
    await waitFor(() => recordOf(url, sessionId)?.connected === false);

    const { client, answer } = await resume(url, sessionId);
    expect(answer).toEqual({ type: 'session.ready', session_id: sessionId });
    // No greeting again: the first reply after resuming is the one asked for.
    client.send({ type: 'reply.create' });
    const after = await client.until('reply.done');
    expect(after.filter((message) => message.type === 'reply.started')).toHaveLength(1);
    // Same acknowledgement (system prompt kept), echo of the last utterance (conversation kept).
    expect(after.find((message) => message.type === 'transcript.agent')?.text).toBe(beforeText);
    // Same audio as before the drop: volume 50 was kept.
    expect(peak(Buffer.concat(decodedAudio(after)))).toBe(peak(Buffer.concat(decodedAudio(before))));

    client.sendAudio(silence(500));
    // Every byte counted once: the audio before the drop plus the audio after the resume.
    await waitFor(() => recordOf(url, sessionId)?.input_audio_bytes === sentBytes + silence(500).length);
    const record = recordOf(url, sessionId);
    expect(record).toMatchObject({ session_id: sessionId, connected: true });
    expect(record?.conversation.map((item) => [item.role, item.text])).toEqual([
      ['agent', 'Welcome.'],
      ['user', 'remember the milk'],
      ['agent', beforeText],
      ['agent', beforeText],
    ]);
  });

  it('resumes after a clean close by the client too', async () => {
    const url = emulator().url;
    const first = await VoiceTestClient.start(url, key);
    const sessionId = first.received[0]!.session_id;
    await first.close();
    await waitFor(() => recordOf(url, sessionId)?.connected === false);
    const { answer } = await resume(url, sessionId);
    expect(answer).toEqual({ type: 'session.ready', session_id: sessionId });
  });

  it('moves a session whose old socket is still open to the new one', async () => {
    const url = emulator().url;
    const first = await VoiceTestClient.start(url, key);
    clients.push(first);
    const sessionId = first.received[0]!.session_id;
    const { client, answer } = await resume(url, sessionId);
    expect(answer).toEqual({ type: 'session.ready', session_id: sessionId });
    expect(await first.closed).toEqual({ code: 4000, reason: 'Session resumed on another connection' });
    client.send({ type: 'reply.create', instructions: 'Still here.' });
    expect((await client.next('transcript.agent')).text).toMatch(/Still here\.$/);
  });

  it('answers session_not_found for an unknown session', async () => {
    const { answer } = await resume(emulator().url, 'sess_unknown');
    expect(answer).toEqual({ type: 'session.error', code: 'session_not_found', message: anyString() });
  });

  it('ends every session on an admin reset', async () => {
    const url = emulator().url;
    const client = await VoiceTestClient.start(url, key);
    const sessionId = client.received[0]!.session_id;
    await fetch(`${url}/__admin/reset`, { method: 'POST' });
    expect((await client.closed).code).toBe(1012);
    expect(voiceSessionRecords(url)).toEqual([]);
    expect((await resume(url, sessionId)).answer).toMatchObject({ code: 'session_not_found' });
  });
});

describe('session.resume after the grace window', () => {
  // 30 s of grace is 100 ms at speed 300.
  const emulator = withEmulator(300);

  it('answers session_not_found once the grace window is over', async () => {
    const url = emulator().url;
    const first = await VoiceTestClient.start(url, key);
    const sessionId = first.received[0]!.session_id;
    await drop(first);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(voiceSessionRecords(url)).toEqual([]);
    const { answer } = await resume(url, sessionId);
    expect(answer).toEqual({ type: 'session.error', code: 'session_not_found', message: anyString() });
  });
});
