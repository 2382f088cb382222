import type { EmulatorApp } from '../types';
import type { IdSequence } from './ids';
import type { AgentConfig } from './session-config';
import { VoiceSession, type VoiceSessionRecord } from './voice-session';

/** The live voice sessions of one emulator, by id, including dropped ones still in their grace window. */
export class SessionStore {
  private readonly sessions = new Map<string, VoiceSession>();

  constructor(
    private readonly app: EmulatorApp,
    private readonly ids: IdSequence,
  ) {}

  create(config: AgentConfig): VoiceSession {
    const session = new VoiceSession(this.ids.next('sess'), config, {
      clock: this.app.clock,
      ids: this.ids,
      takeUtterance: () => this.app.admin.nextUtterances.shift(),
      expired: (expired) => this.sessions.delete(expired.id),
    });
    this.sessions.set(session.id, session);
    return session;
  }

  /** The session a session.resume names, unless it is unknown or its grace window is over. */
  resumable(id: string): VoiceSession | undefined {
    const session = this.sessions.get(id);
    return session?.resumable() ? session : undefined;
  }

  records(): VoiceSessionRecord[] {
    return [...this.sessions.values()].map((session) => session.record());
  }

  clear(): void {
    for (const session of this.sessions.values()) session.end();
    this.sessions.clear();
  }
}

/**
 * Tests read session records through voiceSessionRecords(emulator.url): the admin API cannot
 * host module routes (server.ts answers every /__admin/ path itself), so the stores are found
 * by the base URLs of the emulator that owns them.
 */
const storesByUrl = new Map<string, SessionStore>();

export function publishStore(app: EmulatorApp, store: SessionStore): void {
  storesByUrl.set(app.baseUrl('us'), store);
  storesByUrl.set(app.baseUrl('eu'), store);
}

/** Every session (connected, or dropped and still resumable) of the emulator at `emulatorUrl`. */
export function voiceSessionRecords(emulatorUrl: string): VoiceSessionRecord[] {
  return storesByUrl.get(emulatorUrl)?.records() ?? [];
}
