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
