import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../base/fake-clock.test-kit';
import { VoiceSession } from './voice-session';
import type { VoiceSocketHandlers } from './voice-socket';
import { EventLog } from './voice-session.test-kit';

/** A session over a scripted socket: the test opens it, plays the server and drops it. */
function scripted() {
  const clock = new FakeClock();
  const sockets: { handlers: VoiceSocketHandlers; terminated: boolean; closed: boolean }[] = [];
  const log = new EventLog();
  const session = new VoiceSession({
    socketUrl: 'ws://agent.test/v1/ws',
    auth: { kind: 'key', apiKey: 'k' },
    config: { systemPrompt: '', greeting: '', vadThreshold: 0.1, voice: 'v', volume: 100, tools: [] },
    clock,
    socketFactory: (_request, handlers) => {
      const socket = { handlers, terminated: false, closed: false };
      sockets.push(socket);
      return {
        send: () => undefined,
        // The server never answers the close handshake.
        close: () => void (socket.closed = true),
        terminate: () => void (socket.terminated = true),
      };
    },
    onEvent: log.listener,
  });
  const flush = async (): Promise<void> => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { session, clock, sockets, flush };
}

async function ready(kit: ReturnType<typeof scripted>): Promise<void> {
  const started = kit.session.start();
  await kit.flush();
  kit.sockets.at(-1)!.handlers.open();
  await kit.flush();
  kit.sockets.at(-1)!.handlers.message(JSON.stringify({ type: 'session.ready', session_id: 's1' }));
  await started;
}

describe("a voice session's lifetime", () => {
  it('cancels the wait for session.ready when disposed while starting', async () => {
    const kit = scripted();
    const started = kit.session.start();
    await kit.flush();
    kit.sockets[0]!.handlers.open();
    await kit.flush();
    // Waiting for session.ready, with its answer timeout.
    expect(kit.clock.pending).toBe(1);
    expect(kit.session.pendingTimerCount).toBe(1);
    kit.session.dispose();
    await expect(started).rejects.toMatchObject({ code: 'cancelled' });
    expect(kit.clock.pending).toBe(0);
    expect(kit.session.pendingTimerCount).toBe(0);
    expect(kit.sockets[0]!.terminated).toBe(true);
    expect(kit.session.state).toBe('closed');
  });

  it('cancels the next reconnect when disposed while the connection is down', async () => {
    const kit = scripted();
    await ready(kit);
    expect(kit.clock.pending).toBe(0);
    kit.sockets[0]!.handlers.close(1006, 'gone');
    expect(kit.session.state).toBe('reconnecting');
    expect(kit.clock.pending).toBe(1);
    kit.session.dispose();
    expect(kit.clock.pending).toBe(0);
    await kit.clock.advance(60_000);
    // No second connection was ever attempted.
    expect(kit.sockets).toHaveLength(1);
    expect(kit.session.state).toBe('closed');
  });

  it('cuts short a stop waiting for the close handshake, and cannot be started again', async () => {
    const kit = scripted();
    await ready(kit);
    const stopping = kit.session.stop();
    await kit.flush();
    expect(kit.sockets[0]!.closed).toBe(true);
    expect(kit.clock.pending).toBe(1);
    kit.session.dispose();
    kit.session.dispose();
    await stopping;
    expect(kit.sockets[0]!.terminated).toBe(true);
    expect(kit.clock.pending).toBe(0);
    await expect(kit.session.start()).rejects.toMatchObject({ code: 'cancelled' });
    expect(kit.clock.pending).toBe(0);
  });
});
