import type { EventName, EventPayload } from '../../shared/ipc/contract';

/** Pushes one event to whichever transport is listening (Electron windows, the web host's pages). */
export type EmitEvent = <E extends EventName>(event: E, payload: EventPayload<E>) => void;
