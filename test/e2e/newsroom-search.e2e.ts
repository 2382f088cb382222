import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { NewsroomSection } from './pages/newsroom-section';
import { NewsroomSearchPage } from './pages/newsroom-search-page';
import { startSampleE2eNewsroom, type SampleE2eNewsroom } from './newsroom-postgres.test-kit';
import { NewsroomArchive } from '../../src/main/core/newsroom/newsroom-archive';
import { passwordOf, samplePublication } from '../../src/main/core/newsroom/newsroom-archive.test-kit';

/** A real PostgreSQL for this file (issue #35), with the archive tests' sample desks and reporters. */
let newsroom: SampleE2eNewsroom;

test.beforeAll(async () => {
  newsroom = await startSampleE2eNewsroom();
  await publishAs('ana', 'harbour', 'The harbour master');
});

test.afterAll(async () => {
  await newsroom.stop();
});

/** A colleague publishes, through the archive, as their own login. */
async function publishAs(user: string, transcriptId: string, title: string): Promise<void> {
  const connection = newsroom.connectAs(user);
  try {
    await new NewsroomArchive(connection).apply({
      kind: 'publish',
      publication: samplePublication(transcriptId, 1, { title }),
    });
  } finally {
    await connection.close();
  }
}

/** Settings → Newsroom as ben, a reporter on City. */
async function signInAsBen(
  page: Page,
  shell: { open(): Promise<void>; goTo(view: 'settings' | 'library'): Promise<void> },
) {
  await shell.open();
  await shell.goTo('settings');
  const section = new NewsroomSection(page);
  await section.open();
  await section.saveAs(newsroom.addressOf('ben'), passwordOf('ben'));
  await shell.goTo('library');
}

test('the scope switches by keyboard, a hit names its reporter and desk, and opens read only at its sentence', async ({
  shell,
  page,
}) => {
  await signInAsBen(page, shell);
  const search = new NewsroomSearchPage(page);
  await expect(search.myLibrary).toBeChecked();
  await search.myLibrary.focus();
  await page.keyboard.press('ArrowRight');
  await expect(search.newsroom).toBeChecked();
  await expect(search.newsroom).toBeFocused();

  await search.box.fill('harbo');
  const hit = search.hit('The harbour master').first();
  await expect(hit).toContainText('ana');
  await expect(hit).toContainText('City desk');
  await expect(hit.locator('mark').first()).toHaveText('harbour');

  // The choice is remembered: a reload comes back to the Newsroom scope.
  await page.reload();
  await expect(search.newsroom).toBeChecked();
  await search.box.fill('harbour');
  const link = search.hit('The harbour master').nth(1).locator('a');
  const sentence = (await link.locator('.snippet').textContent()) ?? '';
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(search.banner).toHaveText(
    'From the newsroom: recorded by ana, City desk. Read only: corrections stay with its reporter.',
  );
  await expect(search.reader.getByRole('textbox')).toHaveCount(0);
  // Opened at the hit's sentence, as it was published.
  await expect(search.reader.locator('li[data-cued="true"] p')).toHaveText(sentence);
});

test("a colleague's publish appears in the open newsroom search within a second", async ({ shell, page }) => {
  await signInAsBen(page, shell);
  const search = new NewsroomSearchPage(page);
  await search.newsroom.click();
  await search.box.fill('harbour');
  await expect(search.hit('The harbour master').first()).toBeVisible();
  await expect(search.hit('The ferry timetable')).toHaveCount(0);

  await publishAs('ana', 'ferry', 'The ferry timetable');
  await expect(search.hit('The ferry timetable').first()).toBeVisible({ timeout: 1000 });
});
