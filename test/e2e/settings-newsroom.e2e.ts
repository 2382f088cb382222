import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { NewsroomSection } from './pages/newsroom-section';
import { startE2eNewsroom, type E2eNewsroom } from './newsroom-postgres.test-kit';

/** Ana, a reporter on City, on a real PostgreSQL for this file. */
let newsroomServer: E2eNewsroom;
/** Spaces around it on purpose: the password must reach the server byte for byte. */
const anaPassword = ' ana-pw-5e1d ';

test.beforeAll(async () => {
  newsroomServer = await startE2eNewsroom([{ user: 'ana', password: anaPassword, desk: 'City' }]);
});

test.afterAll(async () => {
  await newsroomServer.stop();
});

const anaAddress = (): string => newsroomServer.addressOf('ana');

async function openNewsroom(
  page: Page,
  shell: { open(): Promise<void>; goTo(view: 'settings'): Promise<void> },
) {
  await shell.open();
  await shell.goTo('settings');
  const newsroom = new NewsroomSection(page);
  await newsroom.open();
  return newsroom;
}

test('a bad newsroom address is refused with what to write, before anything connects', async ({
  shell,
  page,
}) => {
  const newsroom = await openNewsroom(page, shell);
  await expect(newsroom.address).toBeFocused();
  await page.keyboard.type('db.example.org/verbatim');
  await newsroom.save.click();
  await expect(newsroom.addressProblem()).toHaveText(
    'The newsroom address is not an address: write it as postgres://reporter@db.example.org:5432/verbatim.',
  );
  await expect(newsroom.address).toHaveAttribute('aria-invalid', 'true');
  await newsroom.address.fill(
    `postgres://ana:secret-in-url@127.0.0.1:${newsroomServer.postgres.port}/verbatim`,
  );
  await newsroom.address.press('Enter');
  await expect(newsroom.addressProblem()).toHaveText(
    'The newsroom address must not hold the password: remove it from the address and enter it in the password field instead.',
  );
});

test('the reporter saves the newsroom, checks it with the keyboard, and the page never holds the password', async ({
  shell,
  page,
}) => {
  const newsroom = await openNewsroom(page, shell);
  await newsroom.address.fill(anaAddress());
  await newsroom.password.fill('not-her-password');
  await newsroom.check.focus();
  await page.keyboard.press('Enter');
  await expect(newsroom.answer).toHaveText(
    `The newsroom at ${anaAddress()} refused the password for ana, or has no such user: check the user and the password in Settings, or ask your newsroom's administrator.`,
  );
  await newsroom.password.fill(anaPassword);
  await newsroom.password.press('Enter');
  await expect(newsroom.answer).toHaveText('Saved.');
  await expect(newsroom.password).toHaveValue('');
  await expect(newsroom.password).toHaveAttribute('type', 'password');
  await expect(newsroom.password).toHaveAttribute('autocomplete', 'off');

  await page.reload();
  await newsroom.open();
  await expect(newsroom.address).toHaveValue(anaAddress());
  await expect(page.getByText("A password is set, kept in your system's secure store.")).toBeVisible();
  await newsroom.check.click();
  await expect(newsroom.answer).toHaveText('Connected as ana: City (reporter).');
  await expect(newsroom.check).toHaveAttribute('aria-busy', 'false');
  expect(await page.content()).not.toContain(anaPassword.trim());
});
