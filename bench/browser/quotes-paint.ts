import type { Page } from '@playwright/test';
import { startWebApp } from '../../src/web-host/start';
import { percentile, type Measurement } from '../bench-kit';
import { viewPageSize } from '../quotes';
import { launchBenchBrowser, newBenchPage, requireBenchBrowser } from './bench-browser';
import { timeInPage } from './page-timing';

/**
 * The Quotes view in Chromium through the web host, over the library bench/quotes.ts built
 * (10,000 highlights in 1,000 transcripts):
 * - opening the view in a freshly loaded page to the first painted quote, against opening
 *   Settings the same way (as the catalog benchmark does), taking turns at going first;
 * - a search keystroke: from the input event to the list showing that search's quotes, laid
 *   out, against a bare Array.filter of the same 10,000 highlights' lower-cased words and
 *   notes in the same page (the catalog benchmark's floor). The view asks main for each
 *   search, so the notes split each keystroke into its parts: the input event to the request
 *   leaving the page (the view's wait for the next keystroke), the request to its answer
 *   (transport and main), and the answer to the list laid out.
 * Targets, from issue #20: the open's median under 150 ms; the keystroke's p95 under 16 ms.
 */
const OPEN_ROUNDS = 12;
const KEYSTROKE_ROUNDS = 3;
const QUERY = 'council budget';

interface KeystrokeTimes {
  laidOut: number[];
  painted: number[];
  toRequest: number[];
  requestToAnswer: number[];
  answerToLaidOut: number[];
  rows: number[];
}

/**
 * Types the query a key at a time, then erases it, waiting for each keystroke's answer: times
 * from the input event to the list updated with that search's answer and laid out (a forced
 * layout after Svelte's flush), and to the next painted frame.
 */
async function typeAndTime(page: Page, query: string): Promise<KeystrokeTimes> {
  return page.evaluate(async (query) => {
    const input = document.querySelector<HTMLInputElement>('#quotes-search');
    const list = document.querySelector<HTMLElement>('ol[aria-label="Quotes"]');
    if (!input || !list) throw new Error('The Quotes view is not open');
    type Answer = { query: string | undefined; requested: number; answered: number };
    const bridge = (
      window as unknown as {
        api: { quotes: { list(input: { query?: string }): Promise<unknown> } };
      }
    ).api;
    const original = bridge.quotes.list.bind(bridge.quotes);
    let waiting: { query: string | undefined; done: (answer: Answer) => void } | undefined;
    // Every request the view makes, and when its answer comes back to the page.
    bridge.quotes.list = async (request) => {
      const requested = performance.now();
      const answer = await original(request);
      const arrived = { query: request.query, requested, answered: performance.now() };
      if (waiting && waiting.query === request.query) waiting.done(arrived);
      return answer;
    };
    const macrotask = (): Promise<void> =>
      new Promise((done) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => done();
        channel.port2.postMessage(null);
      });
    const times = {
      laidOut: [] as number[],
      painted: [] as number[],
      toRequest: [] as number[],
      requestToAnswer: [] as number[],
      answerToLaidOut: [] as number[],
      rows: [] as number[],
    };
    const texts = [...query].map((_, i) => query.slice(0, i + 1));
    try {
      for (const text of [...texts, ...texts.slice(0, -1).reverse(), '']) {
        const expected = text.trim() || undefined;
        const answered = new Promise<Answer>((done) => (waiting = { query: expected, done }));
        const t0 = performance.now();
        input.value = text;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        const answer = await answered;
        waiting = undefined;
        // The view's own continuation and Svelte's flush run as microtasks before this.
        await macrotask();
        list.getBoundingClientRect();
        void document.body.offsetHeight;
        const laidOut = performance.now();
        times.laidOut.push(laidOut - t0);
        times.toRequest.push(answer.requested - t0);
        times.requestToAnswer.push(answer.answered - answer.requested);
        times.answerToLaidOut.push(laidOut - answer.answered);
        times.rows.push(list.children.length);
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        times.painted.push(performance.now() - t0);
      }
    } finally {
      bridge.quotes.list = original;
    }
    return times;
  }, query);
}

/** The floor: a plain Array.filter of the highlights' lower-cased texts per keystroke, in the same page. */
async function plainFilter(page: Page, texts: string[], query: string): Promise<number[]> {
  return page.evaluate(
    ({ texts, query }) => {
      const lower = texts.map((text) => text.toLowerCase());
      const times: number[] = [];
      const prefixes = [...query].map((_, i) => query.slice(0, i + 1));
      for (const text of [...prefixes, ...prefixes.slice(0, -1).reverse()]) {
        const t0 = performance.now();
        const words = text.toLowerCase().split(/\s+/).filter(Boolean);
        const found = lower.filter((haystack) => words.every((word) => haystack.includes(word)));
        if (found.length < 0) throw new Error('unreachable');
        times.push(performance.now() - t0);
      }
      return times;
    },
    { texts, query },
  );
}

/**
 * `dataDir` holds the library bench/quotes.ts built; `texts` are its highlights' words and
 * notes, for the baseline; `highlights` and `transcripts` name its size in the labels.
 */
export async function run(
  dataDir: string,
  texts: string[],
  size: { highlights: number; transcripts: number },
): Promise<Measurement[]> {
  requireBenchBrowser('quotes');
  const host = await startWebApp({ dataDir });
  const browser = await launchBenchBrowser('quotes');

  try {
    const page = await newBenchPage(browser);
    const openFresh = async (hash: string, selector: string): Promise<{ paint: number; idle: number }> => {
      await page.goto(host.openUrl);
      await page.getByRole('heading', { name: 'Library', exact: true }).waitFor();
      return timeInPage(page, hash, selector);
    };
    const openQuotes = (): Promise<{ paint: number; idle: number }> => openFresh('#/quotes', '[data-quote]');
    const openSettings = (): Promise<{ paint: number; idle: number }> =>
      openFresh('#/settings', 'input[name=theme]');
    // One of each first, unmeasured: the first page of a browser pays for its own start.
    await openQuotes();
    await openSettings();
    const open: number[] = [];
    const openIdle: number[] = [];
    const settings: number[] = [];
    for (let round = 0; round < OPEN_ROUNDS; round++) {
      if (round % 2 === 0) {
        settings.push((await openSettings()).paint);
        const timed = await openQuotes();
        open.push(timed.paint);
        openIdle.push(timed.idle);
      } else {
        const timed = await openQuotes();
        open.push(timed.paint);
        openIdle.push(timed.idle);
        settings.push((await openSettings()).paint);
      }
    }
    await openQuotes();
    const shownOnOpen = await page.locator('[data-quote]').count();
    // The share of opening spent asking main for the view's first page over the transport.
    const fetchList: number[] = [];
    for (let round = 0; round < 5; round++) {
      fetchList.push(
        await page.evaluate(async (limit) => {
          const t0 = performance.now();
          const bridge = (
            window as unknown as { api: { quotes: { list(input: unknown): Promise<unknown> } } }
          ).api;
          await bridge.quotes.list({ limit });
          return performance.now() - t0;
        }, viewPageSize),
      );
    }

    const keystrokes: KeystrokeTimes = {
      laidOut: [],
      painted: [],
      toRequest: [],
      requestToAnswer: [],
      answerToLaidOut: [],
      rows: [],
    };
    const plain: number[] = [];
    for (let round = 0; round < KEYSTROKE_ROUNDS; round++) {
      const timed = await typeAndTime(page, QUERY);
      for (const key of Object.keys(keystrokes) as (keyof KeystrokeTimes)[])
        keystrokes[key].push(...timed[key]);
      plain.push(...(await plainFilter(page, texts, QUERY)));
    }

    const count = (n: number): string => n.toLocaleString('en-US');
    const library = `${count(size.highlights)} highlights in ${count(size.transcripts)} transcripts`;
    return [
      {
        name: `quotes: median time to open the Quotes view to first paint, ${library} (${OPEN_ROUNDS} fresh pages, Chromium)`,
        statistic: 'median',
        unit: 'ms',
        ours: percentile(open, 50),
        baseline: percentile(settings, 50),
        baselineLabel: 'opening the Settings view the same way, median',
        targets: [{ of: 'ours', statistic: 'median', comparison: '<', threshold: 150, unit: 'ms' }],
        notes: {
          p95: percentile(open, 95),
          slowestMs: Math.max(...open),
          toIdleP50Ms: percentile(openIdle, 50),
          settingsP95: percentile(settings, 95),
          quotesInPage: shownOnOpen,
          fetchFirstPageP50Ms: percentile(fetchList, 50),
          order: 'alternating: Settings first on even rounds, Quotes first on odd ones',
        },
      },
      {
        name: `quotes: p95 time from a search keystroke to the Quotes list showing its answer, laid out, ${library} (Chromium)`,
        statistic: 'p95',
        unit: 'ms',
        ours: percentile(keystrokes.laidOut, 95),
        baseline: percentile(plain, 95),
        baselineLabel:
          'a bare Array.filter of the same highlights’ lower-cased words and notes in the same page, p95',
        targets: [{ of: 'ours', statistic: 'p95', comparison: '<', threshold: 16, unit: 'ms' }],
        notes: {
          p50: percentile(keystrokes.laidOut, 50),
          p95ToNextPaintedFrame: percentile(keystrokes.painted, 95),
          inputToRequestP50: percentile(keystrokes.toRequest, 50),
          requestToAnswerP50: percentile(keystrokes.requestToAnswer, 50),
          requestToAnswerP95: percentile(keystrokes.requestToAnswer, 95),
          answerToLaidOutP50: percentile(keystrokes.answerToLaidOut, 50),
          answerToLaidOutP95: percentile(keystrokes.answerToLaidOut, 95),
          keystrokes: keystrokes.laidOut.length,
          rowsInListMax: Math.max(...keystrokes.rows),
          query: `"${QUERY}", typed and erased a key at a time`,
        },
      },
    ];
  } finally {
    await browser.close();
    await host.close();
  }
}
