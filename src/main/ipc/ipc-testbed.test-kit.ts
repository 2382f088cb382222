import { afterEach } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../test/emulator/server';
import { MemorySecrets } from '../core/secrets/secret-store';
import { composeServices, type ComposedServices, type ComposeOptions } from '../compose';
import { acceleratedClock } from '../base/clock';
import { createDispatcher, type Dispatch } from './dispatcher';
import { createHandlers } from './create-handlers';
import { wireEvents } from './events';
import { unwrap } from '../../shared/ipc/envelope';
import type { EventName } from '../../shared/ipc/contract';
import type { ErrorPayload } from '../../shared/errors';

/**
 * For handler tests that need no remote service (the newsroom's, say): the app's services over a
 * fresh data folder, the dispatcher every transport uses, and the events main pushed to pages.
 */
export interface AppTestbed {
  dataDir: string;
  services: ComposedServices;
  dispatch: Dispatch;
  events: { event: EventName; payload: unknown }[];
  /** Dispatches and unwraps: the value, or the VerbatimError thrown. */
  call<T>(method: string, input?: unknown): Promise<T>;
  /** Dispatches a call that must fail: the error a page receives. */
  failure(method: string, input?: unknown): Promise<ErrorPayload>;
  /** Resolves when main next pushes `event`. */
  nextEvent(event: EventName): Promise<void>;
  close(): Promise<void>;
}

export function startAppTestbed(overrides: Partial<ComposeOptions> = {}): AppTestbed {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-ipc-'));
  const services = composeServices({
    dataDir,
    appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
    secrets: new MemorySecrets(),
    ...overrides,
  });
  const dispatch = createDispatcher(createHandlers(services));
  const events: AppTestbed['events'] = [];
  const waiting: { event: EventName; resolve: () => void }[] = [];
  const wiring = wireEvents(services, (event, payload) => {
    events.push({ event, payload });
    for (const each of waiting.filter((entry) => entry.event === event)) {
      waiting.splice(waiting.indexOf(each), 1);
      each.resolve();
    }
  });
  return {
    dataDir,
    services,
    dispatch,
    events,
    call: async <T>(method: string, input?: unknown) => unwrap(await dispatch(method, input)) as T,
    failure: async (method, input) => {
      const answer = (await dispatch(method, input)) as { ok: boolean; error?: ErrorPayload };
      if (answer.ok || !answer.error) throw new Error(`${method} was expected to fail, and succeeded.`);
      return answer.error;
    },
    nextEvent: (event) => new Promise((resolve) => waiting.push({ event, resolve })),
    close: async () => {
      wiring.dispose();
      await services.close();
    },
  };
}

/** For a test file: `app()` starts a fresh testbed, each closed after the test that started it. */
export function useAppTestbeds(): () => AppTestbed {
  const opened: AppTestbed[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((testbed) => testbed.close()));
  });
  return () => {
    const testbed = startAppTestbed();
    opened.push(testbed);
    return testbed;
  };
}

/**
 * For handler tests: the emulator, the app's services over a fresh data folder pointed at it
 * (transcription and gateway), the dispatcher every transport uses, and the events it emitted.
 */
export interface IpcTestbed extends AppTestbed {
  emulator: RunningEmulator;
}

export async function startIpcTestbed(speed: number): Promise<IpcTestbed> {
  const emulator = await startEmulator({ port: 0, speed });
  const app = startAppTestbed({
    secrets: new MemorySecrets({ transcriptionKey: emulator.options.key }),
    transcriptionUrlOverride: emulator.url,
    gatewayUrlOverride: emulator.url,
    clock: acceleratedClock(speed),
  });
  return {
    ...app,
    emulator,
    close: async () => {
      await app.close();
      await emulator.close();
    },
  };
}
