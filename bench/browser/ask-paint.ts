import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startWebApp } from '../../src/web-host/start';
import { percentile, type Measurement } from '../bench-kit';
import { emulatorKey, startEmulatorProcess } from '../emulator-process';
import { launchBenchBrowser, newBenchPage, requireBenchBrowser } from './bench-browser';
import { frameTimes } from './reader';

/**
 * From the first byte of answer text reaching main (the gateway's response body, tapped under
 * the client) to the frame that shows it in the Ask panel, through the web host's socket and
 * the renderer, in Chromium. Baseline: the display's frame interval in the same page, since the
 * target is "painted within one frame" (under 16 ms). Text that arrives at a random moment waits
 * for the next frame, half a frame on average, so about 8 ms of the figure is the display's.
 */
const rounds = 60;
/** Questions per conversation before it is cleared: a long interview's worth of asks. */
const conversationLength = 10;
const speed = 20;
/** An answer's first visible text: a content delta that is not empty. */
const firstText = /"delta":\{"content":"[^"]/;

export async function run(): Promise<Measurement[]> {
  requireBenchBrowser('Ask paint');
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-ask-'));
  // In its own process, as the real gateway is: in this one it would delay the answer's delivery.
  const emulator = await startEmulatorProcess({ dataDir: join(dir, 'emulator'), speed });
  const host = await startWebApp({
    dataDir: join(dir, 'data'),
    apiKey: emulatorKey,
    transcriptionUrl: emulator.url,
    gatewayUrl: emulator.url,
    timeScale: speed,
  });
  const firstTextAt: number[] = [];
  const originalFetch = globalThis.fetch;
  // Taps the gateway's streamed body as the client reads it: when its first text arrives.
  globalThis.fetch = async (input, init) => {
    const response = await originalFetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.includes('/v1/chat/completions') || !response.body) return response;
    const decoder = new TextDecoder();
    let seen = false;
    const tapped = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (!seen && firstText.test(decoder.decode(chunk, { stream: true }))) {
            seen = true;
            firstTextAt.push(performance.timeOrigin + performance.now());
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(tapped, { status: response.status, headers: response.headers });
  };
  // When main announces each answer's first text to the renderer: splits the latency in two.
  const announcedAt = new Map<string, number>();
  const listening = host.services.ask.events.subscribe((event) => {
    if (event.type === 'delta' && !announcedAt.has(event.requestId))
      announcedAt.set(event.requestId, performance.timeOrigin + performance.now());
  });
  const browser = await launchBenchBrowser('Ask paint', ['--mute-audio']);

  try {
    const job = await host.services.core.scheduler.submit({
      source: { kind: 'file', path: resolve('test/fixtures/press-statement.wav') },
      options: {},
      region: 'us',
    });
    await host.services.core.scheduler.idle();
    const page = await newBenchPage(browser);
    await page.goto(host.openUrl);
    await page.evaluate((id) => (window.location.hash = `#/transcript/${id}`), job.id);
    await page.getByRole('group', { name: 'Side panel' }).getByRole('button', { name: 'Ask' }).click();
    const panel = page.getByRole('region', { name: 'Ask the transcript' });
    const question = panel.getByRole('textbox', { name: 'Your question' });

    const latencies: number[] = [];
    const inMain: number[] = [];
    for (let round = 0; round < rounds; round++) {
      if (round > 0 && round % conversationLength === 0) {
        await panel.getByRole('button', { name: 'Clear', exact: true }).click();
        await page
          .getByRole('dialog', { name: 'Clear this conversation?' })
          .getByRole('button', { name: 'Clear' })
          .click();
        await panel.getByText('Ask anything about this recording').waitFor();
      }
      await page.evaluate(() => {
        const w = window as unknown as { paintedAt?: number };
        w.paintedAt = undefined;
        const observer = new MutationObserver(() => {
          const text = document.querySelector('[data-testid="ask-streaming"]')?.textContent ?? '';
          if (!text || text === '…') return;
          observer.disconnect();
          // The next frame paints it; a message posted from its callback runs after that paint.
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => (w.paintedAt = performance.timeOrigin + performance.now());
            channel.port2.postMessage(null);
          });
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      const before = firstTextAt.length;
      const announcedBefore = announcedAt.size;
      await question.fill(`What was announced, round ${round + 1}?`);
      await question.press('Enter');
      await page.waitForFunction(() => (window as unknown as { paintedAt?: number }).paintedAt !== undefined);
      await panel.getByRole('button', { name: 'Ask', exact: true }).waitFor();
      const paintedAt = await page.evaluate(() => (window as unknown as { paintedAt: number }).paintedAt);
      const arrived = firstTextAt[before];
      if (arrived === undefined) throw new Error('the answer was not streamed');
      latencies.push(paintedAt - arrived);
      const announced = [...announcedAt.values()][announcedBefore];
      if (announced !== undefined) inMain.push(announced - arrived);
    }
    const frames = await frameTimes(page, 0, 1);
    const p50 = percentile(latencies, 50);
    const frame = percentile(frames, 50);
    return [
      {
        name: `ask: p50 time from the first streamed byte in main to its paint in the panel (${rounds} questions, Chromium)`,
        statistic: 'p50',
        unit: 'ms',
        ours: p50,
        baseline: frame,
        baselineLabel: "one display frame: the same page's median frame interval",
        targets: [{ of: 'ours', statistic: 'p50', comparison: '<', threshold: 16, unit: 'ms' }],
        notes: {
          p95: percentile(latencies, 95),
          max: Math.max(...latencies),
          byteToEventInMainP50: percentile(inMain, 50),
          rounds,
          conversationLength,
        },
      },
    ];
  } finally {
    globalThis.fetch = originalFetch;
    listening.dispose();
    await browser.close();
    await host.close();
    emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
