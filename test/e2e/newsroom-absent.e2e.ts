import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { NewsroomSection } from './pages/newsroom-section';
import { NewsroomSearchPage } from './pages/newsroom-search-page';
import { startE2eNewsroom, type E2eNewsroom } from './newsroom-postgres.test-kit';
import { freePort, newsroomDatabase } from '../../scripts/newsroom/local-postgres';
import { newsroomAddressText } from '../../src/main/core/newsroom/newsroom-address';
import { NewsroomArchive } from '../../src/main/core/newsroom/newsroom-archive';
import { samplePublication } from '../../src/main/core/newsroom/newsroom-archive.test-kit';
import { NewsroomConnection } from '../../src/main/core/newsroom/newsroom-connection';

/** The states a reporter sees in the Library's Newsroom scope before a newsroom answers (issue #35). */

const anaPassword = 'ana-pw-0b7c';
let cameBack: E2eNewsroom | undefined;

test.afterEach(async () => {
  await cameBack?.stop();
  cameBack = undefined;
});

async function newsroomScope(
  page: Page,
  shell: { open(): Promise<void>; goTo(view: 'library'): Promise<void> },
): Promise<NewsroomSearchPage> {
  await shell.open();
  await shell.goTo('library');
  const search = new NewsroomSearchPage(page);
  await search.newsroom.click();
  return search;
}

test('with no newsroom set, the Newsroom scope says where to set one and its button opens Settings at the newsroom', async ({
  shell,
  page,
}) => {
  const search = await newsroomScope(page, shell);
  const notSet = page.getByTestId('newsroom-not-set');
  await expect(notSet).toContainText(
    "No newsroom is set yet. Enter its address and your password in Settings to search your colleagues' interviews.",
  );
  await expect(search.hits).toHaveCount(0);
  const toSettings = notSet.getByRole('button', { name: 'Open Settings → Newsroom' });
  await toSettings.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/settings\/newsroom$/);
  await expect(new NewsroomSection(page).address).toBeFocused();
});

test('a newsroom nothing answers at is said at once in a sentence, and Retry finds it once it is back', async ({
  shell,
  page,
}) => {
  const port = await freePort();
  const address = newsroomAddressText({ user: 'ana', host: '127.0.0.1', port, database: newsroomDatabase });
  await shell.open();
  await shell.goTo('settings');
  const section = new NewsroomSection(page);
  await section.open();
  await section.saveAs(address, anaPassword);

  const search = await newsroomScope(page, shell);
  await search.box.fill('harbour');
  // A closed port refuses at once: the sentence comes well before any timeout would.
  await expect(page.getByRole('alert')).toHaveText(
    `The newsroom at ${address} cannot be reached: nothing answers there. Check the address in Settings and your network, or ask your newsroom's administrator whether it is running.`,
    { timeout: 5000 },
  );
  await expect(search.box).toHaveValue('harbour');
  const retry = page.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeEnabled();
  // Where to fix the address, beside it.
  const settings = page.getByRole('button', { name: 'Newsroom settings' });
  await expect(settings).toBeEnabled();

  cameBack = await startE2eNewsroom([{ user: 'ana', password: anaPassword, desk: 'City' }], { port });
  const ana = new NewsroomConnection(
    { user: 'ana', host: '127.0.0.1', port, database: newsroomDatabase },
    anaPassword,
  );
  try {
    await new NewsroomArchive(ana).apply({
      kind: 'publish',
      publication: samplePublication('harbour', 1, { title: 'The harbour master' }),
    });
  } finally {
    await ana.close();
  }
  await retry.focus();
  await page.keyboard.press('Enter');
  await expect(search.hit('The harbour master').first()).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(retry).toHaveCount(0);
  await expect(settings).toHaveCount(0);
});
