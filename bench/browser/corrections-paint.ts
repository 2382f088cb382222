import type { Page } from '@playwright/test';
import type { Library } from '../../src/main/core/library/library';
import { generatedTranscript } from '../fixtures';
import { percentile, type Measurement } from '../bench-kit';
import { retypedWithOneWord, turnsOf, withPunctuatedWords } from '../correction-fixtures';
import { timeInPage } from './page-timing';
import { newBenchPage } from './bench-browser';
import { storeWithRecording, withReaderBench } from './reader-host';

/**
 * The correction workspace in Chromium through the web host, with a 3-hour transcript (30,000
 * words) and its recording, as bench/browser/reader.ts opens one:
 * - opening a transcript with 2,000 corrections, against the same transcript uncorrected,
 *   opened the same way in the same page, taking turns at going first;
 * - committing a one-word fix in the reader's inline editor, and undoing it, from the key press
 *   to the turn laid out again with the word changed, against the same Enter with the text
 *   unchanged (the editor closes and the turn shows its words, nothing is stored).
 */
const corrections = 2_000;
const openRounds = 8;
/** Each round edits one turn and closes its editor unchanged once, in turns at going first. */
const commitRounds = 30;
const typedName = 'Alvarez';
/** Names a journalist types over misheard words; none is in the generated vocabulary, so each fix changes a word. */
const fixes = ['Alvarez', 'Brennan', 'Okafor', 'Nakamura', 'Lindqvist', 'Dubois', 'Mbeki', 'Kowalczyk'];

/**
 * `count` one-word fixes through Library.edit, as the editor commits them (a turn retyped): the
 * turns in order, a different word of each turn on every pass over them.
 */
async function correct(library: Library, id: string, count: number): Promise<void> {
  const sentences = await library.sentences(id);
  const turns = turnsOf(sentences);
  for (let fix = 0; fix < count; fix++) {
    const turn = turns[fix % turns.length]!;
    const pass = Math.floor(fix / turns.length);
    const retyped = retypedWithOneWord(
      sentences.slice(turn.from, turn.from + turn.count),
      fixes[fix % fixes.length]!,
      2 + pass * 5,
    );
    const result = await library.edit(id, {
      kind: 'text',
      from: turn.from,
      count: turn.count,
      text: retyped.text,
    });
    if (result.editId === null) throw new Error(`correction ${fix + 1} changed nothing`);
    // A one-word fix rewrites sentences in place, so the turns stay where they were and only
    // the rewritten sentences need replacing here (applyStep would copy all of them each time).
    for (const change of result.steps.flat()) {
      if (change.removed.length !== change.inserted.length) throw new Error('a one-word fix moved sentences');
      change.inserted.forEach((sentence, offset) => {
        sentences[change.position + offset] = { ...sentence, position: change.position + offset };
      });
    }
  }
}

export async function run(): Promise<Measurement[]> {
  return withReaderBench(
    'corrections',
    'verbatim-bench-corrections-paint-',
    async (bench): Promise<Measurement[]> => {
      const { host, browser } = bench;
      const { library } = host.services.core;
      const transcript = withPunctuatedWords(generatedTranscript(30_000, 11));
      for (const [id, title] of [
        ['uncorrected', 'Council budget meeting'],
        ['corrected', 'Council budget meeting, corrected'],
      ] as const) {
        await storeWithRecording(bench, id, title, transcript);
      }
      await correct(library, 'corrected', corrections);
      const applied = (await library.correctionState('corrected')).applied;

      const page = await newBenchPage(browser);
      await page.addInitScript(noteCorrectionCalls);
      await page.goto(host.openUrl);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const open = await openCorrected(page, applied, transcript.sentences.length);
      const commit = await commitInEditor(page);
      return [open, ...commit];
    },
  );
}

/** Opening the corrected transcript from the library, against the uncorrected one, alternately. */
async function openCorrected(page: Page, applied: number, sentences: number): Promise<Measurement> {
  // The main thread's CPU time as well as the wall time: on a busy machine it still tells
  // whether the two openings do the same work.
  const client = await page.context().newCDPSession(page);
  await client.send('Performance.enable');
  const threadTime = async (): Promise<number> =>
    (await client.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'ThreadTime')
      ?.value ?? Number.NaN;
  const cpu: Record<string, number[]> = { corrected: [], uncorrected: [] };
  const openFromLibrary = async (id: string): Promise<{ paint: number; settled: number; idle: number }> => {
    await page.evaluate(() => (window.location.hash = '#/library'));
    await page.getByRole('heading', { name: 'Library' }).waitFor();
    const before = await threadTime();
    // First paint is of the opening sentences; the whole text is in when aria-busy goes.
    const timing = await timeInPage(
      page,
      `#/transcript/${id}`,
      '[data-turn]',
      '[aria-label="Transcript text"]:not([aria-busy])',
    );
    cpu[id]?.push(((await threadTime()) - before) * 1000);
    return timing;
  };
  // Both once, unmeasured: the first opening of the reader loads its code.
  await openFromLibrary('uncorrected');
  await openFromLibrary('corrected');
  cpu.corrected = [];
  cpu.uncorrected = [];
  const ours: number[] = [];
  const baseline: number[] = [];
  const oursWhole: number[] = [];
  const baselineWhole: number[] = [];
  const oursIdle: number[] = [];
  const baselineIdle: number[] = [];
  for (let round = 0; round < openRounds; round++) {
    const order =
      round % 2 === 0 ? (['uncorrected', 'corrected'] as const) : (['corrected', 'uncorrected'] as const);
    for (const id of order) {
      const timing = await openFromLibrary(id);
      (id === 'corrected' ? ours : baseline).push(timing.paint);
      (id === 'corrected' ? oursWhole : baselineWhole).push(timing.settled);
      (id === 'corrected' ? oursIdle : baselineIdle).push(timing.idle);
    }
  }
  return {
    name: `corrections: median time to open a 3-hour transcript with ${corrections.toLocaleString('en-US')} corrections to first paint (${openRounds} rounds, Chromium)`,
    statistic: 'median',
    unit: 'ms',
    ours: percentile(ours, 50),
    baseline: percentile(baseline, 50),
    baselineLabel: 'the same transcript uncorrected, opened the same way in the same page, median',
    targets: [{ of: 'ours', statistic: 'median', comparison: '<', threshold: 300, unit: 'ms' }],
    notes: {
      correctionsApplied: applied,
      slowestMs: Math.max(...ours),
      baselineSlowestMs: Math.max(...baseline),
      wholeTextP50Ms: percentile(oursWhole, 50),
      baselineWholeTextP50Ms: percentile(baselineWhole, 50),
      toInteractiveP50Ms: percentile(oursIdle, 50),
      baselineToInteractiveP50Ms: percentile(baselineIdle, 50),
      mainThreadCpuP50Ms: percentile(cpu.corrected ?? [], 50),
      baselineMainThreadCpuP50Ms: percentile(cpu.uncorrected ?? [], 50),
      sentences,
      order: 'alternating: the uncorrected one first on even rounds, the corrected one first on odd ones',
    },
  };
}

/** The page's record of its `corrections.*` calls over the web host's socket. */
interface CallLog {
  correctionCalls: { id: number; method: string; sent: number; answered?: number }[];
}

/**
 * Runs in the page before the app: notes when each `corrections.*` call is sent on the socket
 * and when its answer reaches the page's main thread (the message event's own time, whatever
 * order the handlers run in), so a commit's time can be split between the page before the
 * request, the round trip through the web host and main, and the page after. It only watches.
 */
function noteCorrectionCalls(): void {
  const log: CallLog['correctionCalls'] = [];
  (window as unknown as CallLog).correctionCalls = log;
  const watched = new WeakSet<WebSocket>();
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the socket as `this`
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket, data) {
    if (typeof data === 'string' && data.includes('"method":"corrections.')) {
      const call = JSON.parse(data) as { id: number; method: string };
      log.push({ id: call.id, method: call.method, sent: performance.now() });
    }
    if (!watched.has(this)) {
      watched.add(this);
      this.addEventListener('message', (event: MessageEvent<string>) => {
        const answer = /^\{"id":(\d+),/.exec(event.data);
        const call = answer ? log.find((entry) => entry.id === Number(answer[1])) : undefined;
        if (call) call.answered = event.timeStamp;
      });
    }
    send.call(this, data);
  };
}

/** A commit's time, split: in the page before the request, the request's round trip, after it. */
interface CommitPhases {
  enterToRequest: number;
  requestToAnswer: number;
  answerToLaidOut: number;
}

async function commitPhases(page: Page, commit: KeyToTurn): Promise<CommitPhases> {
  // The reader paints the corrected words before main answers, so the answer may come later.
  await page.waitForFunction(() =>
    (window as unknown as CallLog).correctionCalls.some(
      (entry) => entry.method === 'corrections.edit' && entry.answered !== undefined,
    ),
  );
  const { start, call } = await page.evaluate(() => ({
    start: (window as unknown as { keyToTurn: { start: number } }).keyToTurn.start,
    call: (window as unknown as CallLog).correctionCalls.find((entry) => entry.method === 'corrections.edit'),
  }));
  if (call?.answered === undefined) throw new Error('the commit sent no corrections.edit, or had no answer');
  return {
    enterToRequest: call.sent - start,
    requestToAnswer: call.answered - call.sent,
    answerToLaidOut: commit.laidOut - (call.answered - start),
  };
}

/** When a key went down in the page, and when the turn it changed was laid out and painted. */
interface KeyToTurn {
  laidOut: number;
  painted: number;
}

/** A word of the transcript (its `data-w` index) and the text it should show. */
interface ShownWord {
  index: number;
  text: string;
}

/**
 * Arms the page to time the next `key` press (on the event's own timestamp, which counts its
 * wait in the input queue) to the moment turn `turn` shows its words out of the editor, with
 * `expected` showing its text (or just its words, with null): then its layout is forced and the
 * time taken, and a message posted from the next frame's callback times the frame that paints
 * it. Resolves with both, in milliseconds from the key press.
 */
async function timeKeyToTurn(
  page: Page,
  press: () => Promise<void>,
  key: string,
  turn: number,
  expected: ShownWord | null,
): Promise<KeyToTurn> {
  await page.evaluate(
    ({ key, turn, expected }) => {
      const w = window as unknown as { keyToTurn?: { start?: number; laidOut?: number; painted?: number } };
      const timing: { start?: number; laidOut?: number; painted?: number } = {};
      w.keyToTurn = timing;
      const onKey = (event: KeyboardEvent): void => {
        if (event.key !== key) return;
        window.removeEventListener('keydown', onKey, true);
        const now = performance.now();
        // A synthetic event may carry no platform time: then the listener's own is the start.
        timing.start = event.timeStamp > 0 && event.timeStamp <= now ? event.timeStamp : now;
      };
      window.addEventListener('keydown', onKey, true);
      const shown = (): HTMLElement | null => {
        const words = document.querySelector<HTMLElement>(`[data-turn="${turn}"] p.words:not(.editing)`);
        if (!words) return null;
        if (expected === null) return words;
        return words.querySelector(`[data-w="${expected.index}"]`)?.textContent === expected.text
          ? words
          : null;
      };
      const observer = new MutationObserver(() => {
        if (timing.start === undefined) return;
        const words = shown();
        if (!words) return;
        observer.disconnect();
        // Reading a size makes the browser lay the turn out now, as the frame would.
        void words.closest('[data-turn]')?.getBoundingClientRect().height;
        timing.laidOut = performance.now() - timing.start;
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => (timing.painted = performance.now() - (timing.start ?? 0));
          channel.port2.postMessage(null);
        });
      });
      observer.observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    },
    { key, turn, expected },
  );
  await press();
  await page.waitForFunction(
    () => (window as unknown as { keyToTurn?: { painted?: number } }).keyToTurn?.painted !== undefined,
    undefined,
    { timeout: 10_000 },
  );
  return page.evaluate(() => {
    const timing = (window as unknown as { keyToTurn: KeyToTurn }).keyToTurn;
    return { laidOut: timing.laidOut, painted: timing.painted };
  });
}

/**
 * The inline editor, as a journalist uses it, on turns spread over the corrected transcript:
 * the turn's words focused, Enter opens the editor, a word is selected and retyped, Enter
 * commits (timed to the turn laid out with the new word), Ctrl+Z undoes it (timed to the old
 * word back). The baseline is the same Enter with nothing typed, which closes the editor
 * without storing anything: the least a commit can cost in this page.
 */
async function commitInEditor(page: Page): Promise<Measurement[]> {
  await page.evaluate(() => (window.location.hash = '#/transcript/corrected'));
  // The whole text, not only the opening sentences painted first (read only).
  await page.locator('[aria-label="Transcript text"]:not([aria-busy])').waitFor();
  const scroller = page.getByRole('region', { name: 'Transcript text' });

  /** Scrolls to a share of the transcript and picks the first turn wholly in view. */
  const turnAt = async (share: number): Promise<number> =>
    page.evaluate(async (share) => {
      const list = document.querySelector<HTMLElement>('[aria-label="Transcript text"]')!;
      list.scrollTop = share * (list.scrollHeight - list.clientHeight);
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const top = list.getBoundingClientRect().top;
      const turn = [...list.querySelectorAll<HTMLElement>('[data-turn]')].find(
        (element) => element.getBoundingClientRect().top >= top + 8,
      );
      return Number(turn?.dataset.turn ?? -1);
    }, share);
  const openEditor = async (turn: number): Promise<void> => {
    await page.locator(`[data-turn="${turn}"] p.words`).focus();
    await page.keyboard.press('Enter');
    await page.locator(`[data-turn="${turn}"] p.words.editing[contenteditable="plaintext-only"]`).waitFor();
  };
  /** The turn's words as shown: their `data-w` indexes and texts. */
  const shownWords = (turn: number): Promise<ShownWord[]> =>
    page.locator(`[data-turn="${turn}"] p.words [data-w]`).evaluateAll((spans) =>
      spans.map((span) => ({
        index: Number((span as HTMLElement).dataset.w),
        text: span.textContent ?? '',
      })),
    );
  /** Selects the editor's middle word (its text is the words joined by spaces), without its punctuation. */
  const selectMiddleWord = (turn: number): Promise<void> =>
    page.evaluate((turn) => {
      const editor = document.querySelector<HTMLElement>(`[data-turn="${turn}"] p.words.editing`)!;
      const node = editor.firstChild!;
      const words = [...(node.textContent ?? '').matchAll(/\S+/g)];
      const middle = words[Math.floor(words.length / 2)]!;
      const bare = /^(.*?)[.?!,]?$/.exec(middle[0])![1]!;
      const range = document.createRange();
      range.setStart(node, middle.index);
      range.setEnd(node, middle.index + bare.length);
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
    }, turn);

  const commits: KeyToTurn[] = [];
  const undos: KeyToTurn[] = [];
  const unchanged: KeyToTurn[] = [];
  let undosNotRestoringTheTurn = 0;
  /** Where each commit's time went: see noteCorrectionCalls. */
  const phases: CommitPhases[] = [];
  const editRound = async (turn: number): Promise<void> => {
    const before = await shownWords(turn);
    const middle = before[Math.floor(before.length / 2)]!;
    // The name takes the word's place; its stop stays where it was.
    const fixed = { index: middle.index, text: `${typedName}${/[.?!,]$/.exec(middle.text)?.[0] ?? ''}` };
    await openEditor(turn);
    await selectMiddleWord(turn);
    await page.evaluate(() => (window as unknown as CallLog).correctionCalls.splice(0));
    // Typed and committed in one go, well within the editor's one-second autosave, so Enter
    // is what stores it.
    const typeAndCommit = async (): Promise<void> => {
      await page.keyboard.type(typedName);
      await page.keyboard.press('Enter');
    };
    const commit = await timeKeyToTurn(page, typeAndCommit, 'Enter', turn, fixed);
    commits.push(commit);
    phases.push(await commitPhases(page, commit));
    // The focus is back on the turn's words, where Ctrl+Z undoes the last stored edit.
    await page.locator(`[data-turn="${turn}"] p.words:focus`).waitFor();
    undos.push(await timeKeyToTurn(page, () => page.keyboard.press('Control+z'), 'z', turn, middle));
    // Every word of the turn as it was, not only the one retyped.
    if (JSON.stringify(await shownWords(turn)) !== JSON.stringify(before)) undosNotRestoringTheTurn++;
  };
  const unchangedRound = async (turn: number): Promise<void> => {
    await openEditor(turn);
    unchanged.push(await timeKeyToTurn(page, () => page.keyboard.press('Enter'), 'Enter', turn, null));
    await page.locator(`[data-turn="${turn}"] p.words:focus`).waitFor();
  };
  // One of each, unmeasured: the first opening of the editor loads and compiles its code.
  const first = await turnAt(0.01);
  await editRound(first);
  await unchangedRound(first);
  commits.length = 0;
  phases.length = 0;
  undos.length = 0;
  unchanged.length = 0;
  for (let round = 0; round < commitRounds; round++) {
    const turn = await turnAt((round + 0.5) / commitRounds);
    if (turn < 0) throw new Error('no turn in view');
    if (round % 2 === 0) {
      await unchangedRound(turn);
      await editRound(turn);
    } else {
      await editRound(turn);
      await unchangedRound(turn);
    }
  }
  await scroller.evaluate((element) => (element.scrollTop = 0));
  const laidOut = (timings: KeyToTurn[]): number[] => timings.map((timing) => timing.laidOut);
  const painted = (timings: KeyToTurn[]): number[] => timings.map((timing) => timing.painted);
  const baselineP95 = percentile(laidOut(unchanged), 95);
  const baselineLabel =
    'the same Enter with nothing typed: the editor closes and the turn shows its words, nothing stored, p95';
  const frameBudget = 1000 / 60;
  return [
    {
      name: `corrections: p95 time from Enter to the corrected turn laid out, a one-word fix in the reader's editor, 3-hour transcript with 2,000 corrections (${commitRounds} edits, Chromium)`,
      statistic: 'p95',
      unit: 'ms',
      ours: percentile(laidOut(commits), 95),
      baseline: baselineP95,
      baselineLabel,
      targets: [
        { of: 'ours', statistic: 'p95', comparison: '<', threshold: tenths(frameBudget), unit: 'ms' },
      ],
      notes: {
        p50: percentile(laidOut(commits), 50),
        baselineP50: percentile(laidOut(unchanged), 50),
        p95ToNextPaintedFrame: percentile(painted(commits), 95),
        baselineP95ToNextPaintedFrame: percentile(painted(unchanged), 95),
        enterToRequestP50: percentile(
          phases.map((phase) => phase.enterToRequest),
          50,
        ),
        requestToAnswerP50: percentile(
          phases.map((phase) => phase.requestToAnswer),
          50,
        ),
        answerToLaidOutP50: percentile(
          phases.map((phase) => phase.answerToLaidOut),
          50,
        ),
        slowestMs: Math.max(...laidOut(commits)),
        order: 'alternating: nothing typed first on even rounds, the fix first on odd ones',
      },
    },
    {
      name: `corrections: p95 time from Ctrl+Z to the turn laid out with its word back, undoing that fix in the reader (${commitRounds} undos, Chromium)`,
      statistic: 'p95',
      unit: 'ms',
      ours: percentile(laidOut(undos), 95),
      baseline: baselineP95,
      baselineLabel,
      targets: [
        { of: 'ours', statistic: 'p95', comparison: '<', threshold: tenths(frameBudget), unit: 'ms' },
        { of: 'note', note: 'undosNotRestoringTheTurn', comparison: '<=', threshold: 0 },
      ],
      notes: {
        p50: percentile(laidOut(undos), 50),
        p95ToNextPaintedFrame: percentile(painted(undos), 95),
        undosNotRestoringTheTurn,
      },
    },
  ];
}

function tenths(value: number): number {
  return Math.round(value * 10) / 10;
}
