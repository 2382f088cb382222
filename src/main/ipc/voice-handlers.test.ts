import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../test/emulator/server';
import { queueUtterance, silence, utterance } from '../../../test/emulator/voice/voice-test-client';
import { unwrap } from '../../shared/ipc/envelope';
import type { EventName } from '../../shared/ipc/contract';
import type { ConversationHit, ConversationSummary, ConversationTurn, VoiceStatus } from '../../shared/voice';
import { composeServices } from '../compose';
import { MemorySecrets } from '../core/secrets/secret-store';
import { rawFileAudio } from '../core/voice/raw-file-audio';
import { createDispatcher } from './dispatcher';
import { wireEvents } from './events';
import { createHandlers } from './create-handlers';

let emulator: RunningEmulator;
let services: ReturnType<typeof composeServices>;
let dispatch: ReturnType<typeof createDispatcher>;
const events: { event: EventName; payload: Record<string, unknown> }[] = [];
const dir = mkdtempSync(join(tmpdir(), 'verbatim-voice-ipc-'));
const output = join(dir, 'assistant.raw');

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 10 });
  services = composeServices({
    dataDir: join(dir, 'data'),
    appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
    secrets: new MemorySecrets({ transcriptionKey: emulator.options.key }),
    transcriptionUrlOverride: emulator.url,
    voiceUrlOverride: emulator.url,
    // The reporter asks a question, then stays quiet.
    voiceAudio: rawFileAudio({
      input: Buffer.concat([silence(1500), utterance(800), silence(2000)]),
      outputPath: output,
      speed: 4,
    }),
  });
  await services.settings.set({
    voicePreferences: {
      ...(await services.settings.get()).voicePreferences,
      greeting: 'Hi.',
      headphones: true,
    },
  });
  dispatch = createDispatcher(createHandlers(services));
  wireEvents(services, (event, payload) => events.push({ event, payload: payload }));
});
afterAll(async () => {
  await services.close();
  await emulator.close();
});

async function call<T>(method: string, input?: unknown): Promise<T> {
  return unwrap(await dispatch(method, input)) as T;
}

async function waitFor<T>(find: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the assistant over the contract', () => {
  it('runs a conversation with a tool call, pushes its events and saves it searchable', async () => {
    await queueUtterance(emulator.url, 'search for the ferry contract 5');
    const started = await call<VoiceStatus>('voice.start');
    expect(started).toMatchObject({ muted: false, mode: 'hands-free', headphones: true });
    // The greeting may already be under way.
    expect(['listening', 'thinking', 'agent-speaking']).toContain(started.state);
    expect(started.conversationId).toMatch(/\S/);
    const tool = await waitFor(
      () => events.find((e) => e.event === 'voice.toolCall' && e.payload.status === 'sent'),
      'a tool result',
    );
    expect(tool.payload).toMatchObject({
      name: 'search_library',
      result: JSON.stringify({ total: 0, quotes: [] }),
    });
    expect(
      events.find((e) => e.event === 'voice.toolCall' && e.payload.status === 'running')?.payload,
    ).toMatchObject({
      name: 'search_library',
      arguments: { query: 'ferry contract 5', limit: 5 },
    });
    await waitFor(
      () =>
        events.find(
          (e) => e.event === 'voice.transcript' && String(e.payload.text).includes('search library says'),
        ),
      'the follow-up reply',
    );
    const user = events.filter((e) => e.event === 'voice.transcript' && e.payload.role === 'user');
    expect(user.at(-1)?.payload).toMatchObject({
      text: 'search for the ferry contract 5',
      final: true,
    });
    expect(user.some((e) => e.payload.final === false)).toBe(true);
    expect(events.some((e) => e.event === 'voice.level')).toBe(true);
    const states = events.filter((e) => e.event === 'voice.status').map((e) => e.payload.state);
    expect(states).toEqual(
      expect.arrayContaining(['connecting', 'listening', 'user-speaking', 'thinking', 'agent-speaking']),
    );

    const stopped = await call<VoiceStatus>('voice.stop');
    expect(stopped).toMatchObject({ state: 'closed', conversationId: null });
    expect(statSync(output).size).toBeGreaterThan(0);

    const [conversation] = await call<ConversationSummary[]>('voice.conversations', {});
    expect(conversation).toMatchObject({
      id: started.conversationId,
      firstQuestion: 'search for the ferry contract 5',
    });
    expect(conversation?.endedAt).not.toBeNull();
    const turns = await call<ConversationTurn[]>('voice.conversation', { id: conversation!.id });
    expect(turns.map((turn) => turn.role)).toEqual(['agent', 'user', 'agent', 'tool', 'agent']);
    expect(turns[3]).toMatchObject({ toolName: 'search_library' });
    const hits = await call<ConversationHit[]>('voice.search', { query: 'ferry' });
    expect(hits.map((hit) => hit.turn.role)).toContain('user');
    expect(hits[0]?.snippet.some((part) => part.match && part.text.toLowerCase() === 'ferry')).toBe(true);
  });

  it('mutes, switches mode and headphones, and keeps the choices', async () => {
    expect(await call<VoiceStatus>('voice.setMuted', { muted: true })).toMatchObject({ muted: true });
    expect(await call<VoiceStatus>('voice.setMode', { mode: 'push-to-talk' })).toMatchObject({
      mode: 'push-to-talk',
    });
    expect(await call<VoiceStatus>('voice.setHeadphones', { headphones: false })).toMatchObject({
      headphones: false,
    });
    expect((await services.settings.get()).voicePreferences).toMatchObject({
      mode: 'push-to-talk',
      headphones: false,
    });
    expect(await call<VoiceStatus>('voice.pushToTalk', { talking: true })).toMatchObject({
      mode: 'push-to-talk',
    });
    await call('voice.setMuted', { muted: false });
  });

  it('lists devices, selects one, and refuses a device that is not there', async () => {
    const devices = await call<{ id: number }[]>('voice.devices');
    expect(devices).toHaveLength(1);
    expect(
      await call<VoiceStatus>('voice.selectDevices', { inputDeviceId: 0, outputDeviceId: 0 }),
    ).toMatchObject({
      inputDeviceId: 0,
      outputDeviceId: 0,
    });
    const refused = await dispatch('voice.selectDevices', { inputDeviceId: 7 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await call('voice.openWindow')).toEqual({ opened: false });
  });

  it('says clearly when the agent refuses the key', async () => {
    await call('voice.stop');
    await services.secrets.set('transcriptionKey', 'wrong-key');
    const refused = await dispatch('voice.start', undefined);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'unauthorized', message: expect.stringMatching(/refused the API key/) as unknown },
    });
    expect(await call<VoiceStatus>('voice.status')).toMatchObject({ state: 'closed' });
  });
});
