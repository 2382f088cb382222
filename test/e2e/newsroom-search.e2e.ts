import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { NewsroomSection } from './pages/newsroom-section';
import { NewsroomSearchPage } from './pages/newsroom-search-page';
import {
  freePort,
  newsroomDatabase,
  startLocalPostgres,
  type LocalPostgres,
} from '../../scripts/newsroom/local-postgres';
import { newsroomAddressText } from '../../src/main/core/newsroom/newsroom-address';
import { NewsroomConnection } from '../../src/main/core/newsroom/newsroom-connection';
import { NewsroomArchive } from '../../src/main/core/newsroom/newsroom-archive';
import {
  createSampleNewsroom,
  passwordOf,
  samplePublication,
} from '../../src/main/core/newsroom/newsroom-archive.test-kit';

/** A real PostgreSQL for this file (issue #35), with the archive tests' sample desks and reporters. */
let postgres: LocalPostgres;

const addressOf = (user: string) => ({
  user,
  host: '127.0.0.1',
  port: postgres.port,
  database: newsroomDatabase,
});

test.beforeAll(async () => {
  const adminPassword = randomBytes(18).toString('base64url');
  postgres = await startLocalPostgres({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-newsroom-search-e2e-')),
    port: await freePort(),
    password: adminPassword,
    persistent: false,
  });
  const admin = new NewsroomConnection(addressOf(postgres.user), adminPassword);
  try {
    await admin.withClient(createSampleNewsroom);
  } finally {
    await admin.close();
  }
  await publishAs('ana', 'harbour', 'The harbour master');
});

test.afterAll(async () => {
  await postgres.stop();
});

/** A colleague publishes, through the archive, as their own login. */
async function publishAs(user: string, transcriptId: string, title: string): Promise<void> {
  const connection = new NewsroomConnection(addressOf(user), passwordOf(user));
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
  await section.address.fill(newsroomAddressText(addressOf('ben')));
  await section.password.fill(passwordOf('ben'));
  await section.password.press('Enter');
  await expect(section.answer).toHaveText('Saved.');
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
