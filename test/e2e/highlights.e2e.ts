import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, fixtureDir } from './fixtures';
import { CorrectionsPage } from './pages/corrections-page';
import { QuotesPage, ReaderHighlights, StoriesPage } from './pages/highlights-page';

/**
 * Highlights and stories (issue #20) in Chromium through the web host: words highlighted from
 * the caret with the keyboard show in the text and the Highlights tab and follow a correction;
 * the Quotes view finds them by a word and by a note; quotes of two transcripts make a story,
 * reordered by keyboard, with the journalist's own text, all kept over a reload.
 */
const interview = join(fixtureDir, 'interview-ferry-contract.wav');
const statement = join(fixtureDir, 'press-statement.wav');

async function seriousViolations(page: Page): Promise<string[]> {
  const report = await new AxeBuilder({ page }).include('main').analyze();
  return report.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

test('highlight words in two transcripts, follow a correction, find them in Quotes and build a story', async ({
  shell,
  page,
}) => {
  test.setTimeout(120_000);
  await shell.open();
  const corrections = new CorrectionsPage(page);
  const { reader } = corrections;
  const highlights = new ReaderHighlights(page);

  // The press statement: "first boats", highlighted as a Quote.
  await reader.openNewTranscript(statement, {});
  await highlights.selectFrom('first', 2);
  await highlights.highlight('Quote', 'Timeline for the boats');
  await expect.poll(() => highlights.markedWords()).toEqual(['first', 'boats']);

  // The interview: "Gull Island" with Shift+→ from the caret, as Check with a note.
  await reader.openNewTranscript(interview, { speaker_labels: true });
  await expect.poll(() => reader.audioReady()).toBeGreaterThanOrEqual(1);
  await highlights.selectFrom('Gull', 2);
  await highlights.highlight('Check', 'Ask the harbour office');
  await expect.poll(() => highlights.markedWords()).toEqual(['Gull', 'Island']);
  await expect(reader.word('Gull')).toHaveAttribute('data-highlight', 'red');

  await highlights.tab.click();
  await expect(highlights.items).toHaveCount(1);
  await expect(highlights.items.first()).toContainText('Gull Island');
  await expect(highlights.items.first()).toContainText('Check');
  await expect(highlights.items.first()).toContainText('Ask the harbour office');
  await expect.poll(async () => seriousViolations(page), { timeout: 20_000 }).toEqual([]);

  // A correction of a highlighted word: the highlight's words follow it, in the text and the panel.
  await corrections.retype('Gull', 'Gall');
  await expect(highlights.items.first()).toContainText('Gall Island');
  await expect.poll(() => highlights.markedWords()).toEqual(['Gall', 'Island']);

  // The Quotes view finds it by a corrected word and by its note, and not by the old word.
  await shell.goTo('quotes');
  const quotes = new QuotesPage(page);
  await expect(quotes.quotes).toHaveCount(2);
  await quotes.search.fill('Gall');
  await expect(quotes.quotes).toHaveCount(1);
  await expect(quotes.quotes.first()).toContainText('Gall Island');
  await expect(quotes.quotes.first()).toContainText('Speaker B');
  await quotes.search.fill('Gull');
  await expect(quotes.quotes).toHaveCount(0);
  await quotes.search.fill('harbour office');
  await expect(quotes.quotes).toHaveCount(1);
  await expect(quotes.quotes.first()).toContainText('Gall Island');
  await quotes.search.fill('');
  await expect(quotes.quotes).toHaveCount(2);
  // The filters offer what has quotes and narrow the list: a label, a speaker, a transcript.
  await quotes.filter('Label', 'Check');
  await expect(quotes.quotes).toHaveCount(1);
  await expect(quotes.quotes.first()).toContainText('Gall Island');
  await quotes.filter('Label', 'Any label');
  await quotes.filter('Speaker', 'Speaker B');
  await expect(quotes.quotes).toHaveCount(1);
  await quotes.filter('Speaker', 'Any speaker');
  const transcripts = await quotes.choices('Transcript');
  expect(transcripts).toHaveLength(3);
  await quotes.filter('Transcript', transcripts[2]!);
  await expect(quotes.quotes).toHaveCount(1);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(quotes.quotes).toHaveCount(2);
  await expect.poll(async () => seriousViolations(page), { timeout: 20_000 }).toEqual([]);

  // Both quotes into a new story, from two transcripts.
  await quotes.addToStory('Gall Island', 'Ferry piece', true);
  await quotes.addToStory('first boats', 'Ferry piece');

  await shell.goTo('stories');
  const stories = new StoriesPage(page);
  await stories.open('Ferry piece');
  await expect(stories.items).toHaveCount(2);
  await expect(stories.items.nth(0)).toContainText('Gall Island');
  await expect(stories.items.nth(1)).toContainText('first boats');

  // Alt+↑ on the second item's grip moves it to the top, the keyboard staying on the grip.
  await stories.handle(1).focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(stories.items.nth(0)).toContainText('first boats');
  await expect(stories.handle(0)).toBeFocused();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(stories.items.nth(1)).toContainText('first boats');
  await expect(stories.handle(1)).toBeFocused();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(stories.items.nth(0)).toContainText('first boats');

  await stories.newText.fill('The new service starts in spring.');
  await stories.addText.click();
  await expect(stories.items).toHaveCount(3);
  await expect(stories.items.nth(2)).toContainText('The new service starts in spring.');
  // Play the story: each quote marked in turn as it plays (the text item passed over), then it stops.
  await stories.play.click();
  await expect(page.getByRole('status').filter({ hasText: 'Quote 1 of 2' })).toBeVisible();
  await expect(stories.items.nth(0)).toHaveClass(/\bplaying\b/);
  await expect(page.getByRole('status').filter({ hasText: 'Quote 2 of 2' })).toBeVisible({ timeout: 10_000 });
  await expect(stories.items.nth(1)).toHaveClass(/\bplaying\b/);
  await expect(stories.play).toBeVisible({ timeout: 10_000 });
  await expect.poll(async () => seriousViolations(page), { timeout: 20_000 }).toEqual([]);

  // Trim the Gall Island quote to its last word.
  await stories.items
    .nth(1)
    .getByRole('button', { name: /^Trim… the quote “Gall Island/ })
    .click();
  const trim = page.getByRole('dialog', { name: 'Trim the quote' });
  await trim.getByLabel('From the word').selectOption({ label: 'Island' });
  await trim.getByRole('button', { name: 'Trim' }).click();
  await trim.waitFor({ state: 'detached' });
  await expect(stories.items.nth(1).locator('blockquote')).toHaveText(/^“Island\.?”$/);

  // Everything is kept over a reload.
  await page.reload();
  await shell.heading.waitFor();
  await stories.open('Ferry piece');
  await expect(stories.items).toHaveCount(3);
  await expect(stories.items.nth(0)).toContainText('first boats');
  await expect(stories.items.nth(1).locator('blockquote')).toHaveText(/^“Island\.?”$/);
  await expect(stories.items.nth(2)).toContainText('The new service starts in spring.');

  // Export… as Markdown: the quotes in story order with a citation each, then the text.
  const out = mkdtempSync(join(tmpdir(), 'verbatim-story-'));
  try {
    await page.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export the story' });
    await dialog.getByLabel('Format').selectOption('md');
    await dialog.getByLabel('Save to').fill(join(out, 'ferry.md'));
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog.getByTestId('story-export-done')).toHaveText(`Saved to ${join(out, 'ferry.md')}`);
    const markdown = readFileSync(join(out, 'ferry.md'), 'utf8');
    const first = markdown.indexOf('first boats');
    const second = markdown.indexOf('Island');
    const text = markdown.indexOf('The new service starts in spring.');
    expect(first).toBeGreaterThan(-1);
    expect(second).toBeGreaterThan(first);
    expect(text).toBeGreaterThan(second);
    expect(markdown).toContain('press-statement');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('the Quotes view keeps only the quotes in view in the page, and pages on to the last as it scrolls', async ({
  shell,
  page,
}) => {
  await shell.open();
  const highlights = new ReaderHighlights(page);
  const id = await highlights.reader.openNewTranscript(interview, { speaker_labels: true });
  // A highlight on each of 80 words, made through the page's bridge as another window would.
  const made = await page.evaluate(async (id) => {
    type Envelope<T> = { ok: true; value: T } | { ok: false; error: { message: string } };
    const api = (
      window as unknown as {
        api: {
          transcripts: {
            get(input: {
              id: string;
            }): Promise<Envelope<{ sentences: { words: { start: number; end: number; text: string }[] }[] }>>;
          };
          highlights: { create(input: object): Promise<Envelope<unknown>> };
        };
      }
    ).api;
    const detail = await api.transcripts.get({ id });
    if (!detail.ok) throw new Error(detail.error.message);
    const words = detail.value.sentences.flatMap((sentence) => sentence.words).slice(0, 80);
    for (const word of words) {
      const envelope = await api.highlights.create({
        transcriptId: id,
        startMs: word.start,
        endMs: word.end,
      });
      if (!envelope.ok) throw new Error(envelope.error.message);
    }
    return { count: words.length, lastWord: words[words.length - 1]?.text ?? '' };
  }, id);
  expect(made.count).toBe(80);

  await shell.goTo('quotes');
  const quotes = new QuotesPage(page);
  await expect(quotes.count).toHaveText('80 quotes');
  const shown = await quotes.quotes.count();
  expect(shown).toBeGreaterThan(3);
  expect(shown).toBeLessThan(80);
  const firstBefore = await page.locator('li[data-quote]').first().getAttribute('data-quote');
  const scrollToEnd = (): Promise<void> =>
    page.locator('ol[aria-label="Quotes"]').evaluate((list) => {
      const scroller = list.closest('.scroller');
      if (scroller) scroller.scrollTop = scroller.scrollHeight;
    });
  await scrollToEnd();
  await expect(page.locator(`li[data-quote="${firstBefore}"]`)).toHaveCount(0);
  expect(await quotes.quotes.count()).toBeLessThan(80);
  // The view asked for its first page only; the rest come as the list nears their end (the
  // rows drawn below the view grow with it): the last word spoken is the last quote, once
  // scrolled to, and in view.
  await expect
    .poll(async () => {
      await scrollToEnd();
      return page.locator('li[data-quote] blockquote').last().textContent();
    })
    .toContain(made.lastWord);
  await expect(page.locator('li[data-quote]').last()).toBeInViewport();
  await expect(quotes.count).toHaveText('80 quotes');
  expect(await quotes.quotes.count()).toBeLessThan(80);
});
