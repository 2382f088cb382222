import pg from 'pg';
import type { NewsroomAccess } from './newsroom-address';
import { newsroomErrorOf } from './newsroom-errors';
import { defaultNewsroomBounds, newsroomPoolConfig, type NewsroomBounds } from './newsroom-connection';

/**
 * Tells an open newsroom search that the archive changed, so it runs again (issue #35, point 7).
 * Migration 004 notifies the channel on every publish, republish and unpublish, with an empty
 * payload: every listener hears every notification whatever row-level security would show them,
 * so the search that runs again, as the reporter, is what decides what they see.
 *
 * One dedicated connection LISTENs (a pooled one would be handed to other work). When it is lost
 * (the server restarted, the network went away) it is opened again with growing pauses; once
 * back, `onChange` is called, as a publish may have been missed meanwhile.
 */
export const newsroomChannel = 'verbatim_newsroom';

/**
 * Working together (issue #36): a glossary or a shared story changed. The payload names only the
 * kind ('glossary', 'story'): every listener hears every notification whatever row-level
 * security would show them, so it never carries a name, an id or a word.
 */
export const collaborationChannel = 'verbatim_collaboration';

export interface NewsroomWatchOptions {
  bounds?: NewsroomBounds;
  /** The first pause before connecting again, doubled after each failure up to `maxRetryMs`. */
  firstRetryMs?: number;
  maxRetryMs?: number;
  /** Told each time the connection is lost, for a log; the watch keeps trying. */
  onLost?: (error: unknown) => void;
  /**
   * The channel listened to: the archive's (`newsroomChannel`) unless told otherwise; working
   * together (issue #36) has its own, `collaborationChannel`, whose payload names what changed.
   */
  channel?: string;
}

export interface NewsroomWatch {
  /** Resolves once listening (the first time); rejects if the first connection fails. */
  readonly ready: Promise<void>;
  /** Stops listening and closes the connection. */
  dispose(): Promise<void>;
}

export function watchNewsroom(
  access: NewsroomAccess,
  onChange: (payload: string | undefined) => void,
  options: NewsroomWatchOptions = {},
): NewsroomWatch {
  const channel = options.channel ?? newsroomChannel;
  // LISTEN takes a name, not a parameter: only a plain one is ever put in the statement.
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  const bounds = options.bounds ?? defaultNewsroomBounds;
  const firstRetryMs = options.firstRetryMs ?? 250;
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  let disposed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let pause = firstRetryMs;

  async function listen(): Promise<void> {
    const listening = new pg.Client(newsroomPoolConfig(access, bounds));
    client = listening;
    let lost = false;
    const lose = (error: unknown) => {
      if (lost || disposed) return;
      lost = true;
      options.onLost?.(error);
      void listening.end().catch(() => undefined);
      reconnectLater();
    };
    listening.on('error', lose);
    listening.on('end', () => lose(new Error('The newsroom closed the connection.')));
    listening.on('notification', (message) => {
      if (message.channel === channel) onChange(message.payload);
    });
    try {
      await listening.connect();
      await listening.query(`LISTEN ${channel}`);
    } catch (error) {
      lost = true;
      await listening.end().catch(() => undefined);
      throw error;
    }
    if (disposed) await listening.end().catch(() => undefined);
  }

  function reconnectLater(): void {
    if (disposed) return;
    retry = setTimeout(() => {
      retry = undefined;
      listen().then(
        () => {
          pause = firstRetryMs;
          // Nothing says what was missed: undefined asks for everything to be read again.
          if (!disposed) onChange(undefined);
        },
        (error: unknown) => {
          options.onLost?.(error);
          pause = Math.min(pause * 2, maxRetryMs);
          reconnectLater();
        },
      );
    }, pause);
  }

  // A first failure is the caller's to hear, in words, through `ready`; it is not retried.
  const ready = listen().catch((error: unknown) => {
    throw newsroomErrorOf(error, access.address);
  });
  ready.catch(() => undefined);
  return {
    ready,
    async dispose() {
      disposed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
