import type { Page } from '@playwright/test';

/**
 * Milliseconds from navigating to `hash` to the frame after `selector` appears; to the frame
 * after `settledSelector` appears too, when given (a view that paints a first part before the
 * rest: the reader's whole text after its opening sentences); and to the main thread's next
 * idle moment after both. (The page's CSP forbids eval, so no code strings here.)
 */
export async function timeInPage(
  page: Page,
  hash: string,
  selector: string,
  settledSelector?: string,
): Promise<{ paint: number; settled: number; idle: number }> {
  return page.evaluate(
    async ({ hash, selector, settledSelector }) => {
      const t0 = performance.now();
      const frameAfter = async (wanted: string): Promise<number> => {
        await new Promise<void>((resolveReady) => {
          const check = (): void =>
            document.querySelector(wanted) ? resolveReady() : void requestAnimationFrame(check);
          check();
        });
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return performance.now() - t0;
      };
      window.location.hash = hash;
      const paint = await frameAfter(selector);
      const settled = settledSelector ? await frameAfter(settledSelector) : paint;
      await new Promise((r) => requestIdleCallback(r, { timeout: 5000 }));
      return { paint, settled, idle: performance.now() - t0 };
    },
    { hash, selector, settledSelector },
  );
}
