import type { AudioSink } from './playback-queue';
import type { VoiceEvent, VoiceState } from './voice-session';
import { wsSocketFactory, type VoiceSocket, type VoiceSocketFactory } from './voice-socket';

/** Shared by the voice tests and the voice bench: a recording sink, socket and event log. */

/** A sink that plays instantly into memory; `capacity` bytes per drain simulate a device buffer. */
export class MemorySink implements AudioSink {
  readonly written: Buffer[] = [];
  flushes = 0;
  closed = false;
  private buffered = 0;
  private drainWaiters: (() => void)[] = [];

  constructor(private readonly capacity = Infinity) {}

  get bytes(): number {
    return this.written.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  write(pcm: Buffer): boolean {
    this.written.push(Buffer.from(pcm));
    this.buffered += pcm.length;
    return this.buffered < this.capacity;
  }

  drained(): Promise<void> {
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** The device played what it held. */
  play(): void {
    this.buffered = 0;
    for (const resolve of this.drainWaiters.splice(0)) resolve();
  }

  flush(): void {
    this.flushes += 1;
    this.buffered = 0;
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

/** The real `ws` socket, with every socket and sent frame kept for the test to inspect or break. */
export function recordingSocketFactory(): {
  factory: VoiceSocketFactory;
  sockets: VoiceSocket[];
  sent: { type: string; [field: string]: unknown }[];
  urls: string[];
} {
  const sockets: VoiceSocket[] = [];
  const sent: { type: string; [field: string]: unknown }[] = [];
  const urls: string[] = [];
  const factory: VoiceSocketFactory = (request, handlers) => {
    urls.push(request.url);
    const socket = wsSocketFactory(request, handlers);
    const recorded: VoiceSocket = {
      send: (text) => {
        sent.push(parseOrRaw(text));
        socket.send(text);
      },
      close: () => socket.close(),
      terminate: () => socket.terminate(),
    };
    sockets.push(recorded);
    return recorded;
  };
  return { factory, sockets, sent, urls };
}

/**
 * Collects a session's events. next() takes them in order, like reading a log: it returns the
 * first matching event after the last one taken, waiting for it if it has not happened yet.
 */
export class EventLog {
  readonly events: VoiceEvent[] = [];
  private cursor = 0;
  private wake: (() => void) | undefined;

  readonly listener = (event: VoiceEvent): void => {
    this.events.push(event);
    this.wake?.();
  };

  get states(): VoiceState[] {
    return this.events.flatMap((event) => (event.type === 'state' ? [event.state] : []));
  }

  of<T extends VoiceEvent['type']>(type: T): Extract<VoiceEvent, { type: T }>[] {
    return this.events.filter((event): event is Extract<VoiceEvent, { type: T }> => event.type === type);
  }

  async next<T extends VoiceEvent['type']>(
    type: T,
    match: (event: Extract<VoiceEvent, { type: T }>) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<Extract<VoiceEvent, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.events.findIndex(
        (event, i) =>
          i >= this.cursor && event.type === type && match(event as Extract<VoiceEvent, { type: T }>),
      );
      if (index >= 0) {
        this.cursor = index + 1;
        return this.events[index] as Extract<VoiceEvent, { type: T }>;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        const seen = this.events.slice(this.cursor).map((event) => event.type);
        throw new Error(
          `no ${type} event within ${timeoutMs} ms; since then: ${seen.join(', ') || 'nothing'}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}

function parseOrRaw(text: string): { type: string; [field: string]: unknown } {
  try {
    return JSON.parse(text) as { type: string };
  } catch {
    return { type: '(not json)', text };
  }
}
