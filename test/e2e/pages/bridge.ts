import type { Page } from '@playwright/test';

/**
 * One call of the page's own bridge (`window.api`), as the renderer makes it: the value, or the
 * error's message thrown. For a test's set-up that the UI under test is not about.
 */
export function callBridge<T>(page: Page, method: `${string}.${string}`, input?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, input }) => {
      const [group, name] = method.split('.') as [string, string];
      type Envelope = { ok: true; value: unknown } | { ok: false; error: { message: string } };
      const api = (
        window as unknown as { api: Record<string, Record<string, (input: unknown) => Promise<Envelope>>> }
      ).api;
      const envelope = await api[group]![name]!(input);
      if (!envelope.ok) throw new Error(envelope.error.message);
      return envelope.value;
    },
    { method, input },
  ) as Promise<T>;
}

/** A call the page sent to main, as it went over the bridge's socket. */
export interface SentCall {
  method: string;
  input: unknown;
}

/**
 * Every call the page sends to main, in the order it sends them (read from its WebSocket, a
 * reload's new socket included), for a test of what one click asked for. Start it before the
 * page opens.
 */
export function bridgeCalls(page: Page): SentCall[] {
  const calls: SentCall[] = [];
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      if (typeof payload !== 'string') return;
      const { method, input } = JSON.parse(payload) as Partial<SentCall>;
      if (method) calls.push({ method, input });
    });
  });
  return calls;
}
