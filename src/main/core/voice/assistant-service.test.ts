import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { silence } from '../../../../test/emulator/voice/voice-test-client';
import { VerbatimError } from '../../../shared/errors';
import { unwrap } from '../../../shared/ipc/envelope';
import type { VoiceStatus } from '../../../shared/voice';
import { composeServices } from '../../compose';
import { createDispatcher } from '../../ipc/dispatcher';
import { createHandlers } from '../../ipc/create-handlers';
import { MemorySecrets } from '../secrets/secret-store';
import type { AssistantAudio } from './assistant-service';
import type { MicrophoneAccess } from './microphone-access';
import { rawFileAudio } from './raw-file-audio';

/**
 * What the assistant does before it opens a device: the OS's microphone permission (macOS), and
 * a sound system that could not load at all. Both stop the start with the journalist's sentence,
 * over the same contract the app uses.
 */

let emulator: RunningEmulator;
/** Stands in for the voice agent where nothing should reach it: it counts who tries. */
let agentStandIn: Server;
let connections = 0;
const dir = mkdtempSync(join(tmpdir(), 'verbatim-assistant-access-'));
const opened: ReturnType<typeof composeServices>[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 10 });
  agentStandIn = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => agentStandIn.listen(0, '127.0.0.1', resolve));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((services) => services.close()));
});
afterAll(async () => {
  await emulator.close();
  await new Promise((resolve) => agentStandIn.close(resolve));
});

function standInUrl(): string {
  const address = agentStandIn.address();
  if (!address || typeof address === 'string') throw new Error('the stand-in is not listening');
  return `http://127.0.0.1:${address.port}`;
}

/** Recorded audio whose every device opening is counted, with the given permission answer. */
function countedAudio(overrides: Partial<AssistantAudio> = {}) {
  const recorded = rawFileAudio({ input: silence(3000), outputPath: join(dir, 'out.raw'), speed: 4 });
  const counts = { sources: 0, sinks: 0, sourceStarts: 0 };
  const audio: AssistantAudio = {
    devices: () => recorded.devices(),
    source: (deviceId) => {
      counts.sources += 1;
      const source = recorded.source(deviceId);
      return {
        start: (onAudio, onError) => {
          counts.sourceStarts += 1;
          source.start(onAudio, onError);
        },
        stop: () => source.stop(),
      };
    },
    sink: (deviceId, onError) => {
      counts.sinks += 1;
      return recorded.sink(deviceId, onError);
    },
    ...overrides,
  };
  return { audio, counts };
}

/** `key` null: no transcription key saved. */
function compose(audio: AssistantAudio, voiceUrl: string, key: string | null = emulator.options.key) {
  const services = composeServices({
    dataDir: mkdtempSync(join(dir, 'data-')),
    appInfo: { name: 'Verbatim', version: '0', platform: 'darwin' },
    secrets: new MemorySecrets({ transcriptionKey: key ?? undefined }),
    voiceUrlOverride: voiceUrl,
    voiceAudio: audio,
  });
  opened.push(services);
  const dispatch = createDispatcher(createHandlers(services));
  return { services, dispatch };
}

describe('the microphone permission', () => {
  it('stops a refused start before any device or connection is opened, and says how to allow it', async () => {
    const microphoneAccess = vi.fn(() => Promise.resolve<MicrophoneAccess>('denied'));
    const { audio, counts } = countedAudio({ microphoneAccess });
    const { services, dispatch } = compose(audio, standInUrl());
    const before = connections;

    const refused = await dispatch('voice.start', undefined);
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const message = (refused as { error: { message: string } }).error.message;
    expect(message).toContain('System Settings → Privacy & Security → Microphone, then turn on Verbatim');

    expect(microphoneAccess).toHaveBeenCalledTimes(1);
    expect(counts).toEqual({ sources: 0, sinks: 0, sourceStarts: 0 });
    expect(connections).toBe(before);
    expect(unwrap(await dispatch('voice.status', undefined))).toMatchObject({
      state: 'closed',
      conversationId: null,
    });
    // No conversation was begun for a session that never was.
    expect(services.conversations.list()).toEqual([]);
    await expect(services.assistant.start()).rejects.toBeInstanceOf(VerbatimError);
  });

  it('starts once the microphone is allowed, having asked before the microphone opened', async () => {
    const order: string[] = [];
    const { audio, counts } = countedAudio();
    const source = audio.source.bind(audio);
    const { services } = compose(
      {
        ...audio,
        microphoneAccess: () => {
          order.push('asked');
          return Promise.resolve('granted');
        },
        source: (deviceId) => {
          order.push('source');
          return source(deviceId);
        },
      },
      emulator.url,
    );
    const started = await services.assistant.start();
    expect(started.state).not.toBe('closed');
    expect(order).toEqual(['asked', 'source']);
    expect(counts.sourceStarts).toBe(1);
    await services.assistant.stop();
  });

  it('does not ask for the microphone when the assistant could not start anyway (no key)', async () => {
    const microphoneAccess = vi.fn(() => Promise.resolve<MicrophoneAccess>('granted'));
    const { audio } = countedAudio({ microphoneAccess });
    const { services } = compose(audio, standInUrl(), null);
    await expect(services.assistant.start()).rejects.toMatchObject({ code: 'unauthorized' });
    expect(microphoneAccess).not.toHaveBeenCalled();
  });
});

describe('a computer whose sound system cannot be used', () => {
  const reason =
    'Verbatim cannot use the microphone or speaker on this computer: a sound library it needs (PortAudio) is missing. Everything else works; only the spoken assistant needs them.';

  it('tells the UI in its status, and refuses to start with the same sentence, asking nothing', async () => {
    const microphoneAccess = vi.fn(() => Promise.resolve<MicrophoneAccess>('granted'));
    const { audio, counts } = countedAudio({
      microphoneAccess,
      unavailable: () => reason,
      devices: () => [],
    });
    const { dispatch } = compose(audio, standInUrl());
    const before = connections;

    // Through the contract's validation: the field survives it.
    const status = unwrap(await dispatch('voice.status', undefined)) as VoiceStatus;
    expect(status).toMatchObject({ state: 'closed', audioUnavailable: reason });
    expect(unwrap(await dispatch('voice.devices', undefined))).toEqual([]);

    const refused = await dispatch('voice.start', undefined);
    expect(refused).toMatchObject({ ok: false, error: { message: reason } });
    expect(microphoneAccess).not.toHaveBeenCalled();
    expect(counts).toEqual({ sources: 0, sinks: 0, sourceStarts: 0 });
    expect(connections).toBe(before);
  });

  it('leaves the status without the field where sound works', async () => {
    const { audio } = countedAudio({ unavailable: () => undefined });
    const { dispatch } = compose(audio, standInUrl());
    const status = unwrap(await dispatch('voice.status', undefined)) as VoiceStatus;
    expect(status).not.toHaveProperty('audioUnavailable');
  });
});
