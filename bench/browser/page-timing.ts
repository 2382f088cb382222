import type { Page } from '@playwright/test';

/**
 * Milliseconds from navigating to `hash` to the frame after `selector` appears, and to the
 * main thread's next idle moment. (The page's CSP forbids eval, so no code strings here.)
 */
export async function timeInPage(
  page: Page,
  hash: string,
  selector: string,
): Promise<{ paint: number; idle: number }> {
  return page.evaluate(
    async ({ hash, selector }) => {
      const t0 = performance.now();
      window.location.hash = hash;
      await new Promise<void>((resolveReady) => {
        const check = (): void =>
          document.querySelector(selector) ? resolveReady() : void requestAnimationFrame(check);
        check();
      });
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const paint = performance.now() - t0;
      await new Promise((r) => requestIdleCallback(r, { timeout: 5000 }));
      return { paint, idle: performance.now() - t0 };
    },
    { hash, selector },
  );
}
