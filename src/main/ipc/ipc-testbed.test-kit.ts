import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../test/emulator/server';
import { MemorySecrets } from '../core/secrets/secret-store';
import { composeServices } from '../compose';
import { acceleratedClock } from '../base/clock';
import { createDispatcher, type Dispatch } from './dispatcher';
import { createHandlers } from './create-handlers';
import { wireEvents } from './events';
import { unwrap } from '../../shared/ipc/envelope';
import type { EventName } from '../../shared/ipc/contract';

/**
 * For handler tests: the emulator, the app's services over a fresh data folder pointed at it
 * (transcription and gateway), the dispatcher every transport uses, and the events it emitted.
 */
export interface IpcTestbed {
  emulator: RunningEmulator;
  services: ReturnType<typeof composeServices>;
  dispatch: Dispatch;
  events: { event: EventName; payload: unknown }[];
  /** Dispatches and unwraps: the value, or the VerbatimError thrown. */
  call<T>(method: string, input?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function startIpcTestbed(speed: number): Promise<IpcTestbed> {
  const emulator = await startEmulator({ port: 0, speed });
  const services = composeServices({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-ipc-')),
    appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
    secrets: new MemorySecrets({ transcriptionKey: emulator.options.key }),
    transcriptionUrlOverride: emulator.url,
    gatewayUrlOverride: emulator.url,
    clock: acceleratedClock(speed),
  });
  const dispatch = createDispatcher(createHandlers(services));
  const events: IpcTestbed['events'] = [];
  const wiring = wireEvents(services, (event, payload) => events.push({ event, payload }));
  return {
    emulator,
    services,
    dispatch,
    events,
    call: async <T>(method: string, input?: unknown) => unwrap(await dispatch(method, input)) as T,
    close: async () => {
      wiring.dispose();
      await services.close();
      await emulator.close();
    },
  };
}
