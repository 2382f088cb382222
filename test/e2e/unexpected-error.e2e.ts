import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, fixtureDir } from './fixtures';
import { LibraryPage } from './pages/library-page';
import { UnexpectedErrorPanel } from './pages/unexpected-error';

const interview = join(fixtureDir, 'interview-ferry-contract.wav');

interface LogWrite {
  level: string;
  message: string;
  details?: string;
}

/**
 * Stands between the page and the web host's socket: answers `library.search` as told (a
 * reply the contract never gives makes the page's own code fail, as a bug would) and keeps
 * every `log.write` the page sends, which still goes on to the host.
 */
async function interceptBridge(page: Page, searchReply: () => unknown): Promise<LogWrite[]> {
  const written: LogWrite[] = [];
  await page.routeWebSocket(/__verbatim\/api/, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((raw) => {
      const message = JSON.parse(String(raw)) as { id: number; method: string; input?: unknown };
      if (message.method === 'log.write') written.push(message.input as LogWrite);
      const reply = message.method === 'library.search' ? searchReply() : undefined;
      if (reply === undefined) server.send(raw);
      else socket.send(JSON.stringify({ id: message.id, result: reply }));
    });
  });
  return written;
}

async function seriousViolations(page: Page): Promise<string[]> {
  const report = await new AxeBuilder({ page }).analyze();
  return report.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

test('an unexpected failure is said in plain words, with details to copy, and goes to the log', async ({
  shell,
  page,
  context,
  host,
  allowConsole,
}) => {
  // The failure is the subject: the window reports it in its console too, for a developer.
  allowConsole(
    /^console error: Verbatim: unexpected error in library\.search TypeError: Cannot read properties of null/,
  );
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // First a failure the contract declares, then one it does not: a search answered with nothing.
  let reply: unknown = {
    ok: false,
    error: { code: 'storage', message: 'The library could not be searched: the disk is full.' },
  };
  const written = await interceptBridge(page, () => reply);
  await shell.open();
  const library = new LibraryPage(page);
  await library.create(interview);

  await library.search('ferry');
  const failure = new UnexpectedErrorPanel(library.results);
  await expect(failure.alert).toHaveText('The library could not be searched: the disk is full.');
  // A declared failure is its own sentence: nothing to copy, nothing logged.
  await expect(failure.copy).toHaveCount(0);

  reply = { ok: true, value: null };
  await library.search('ferry contract');
  await expect(failure.alert).toHaveText(
    'Something unexpected went wrong in Verbatim. Try again, and if it happens again, copy the details and send them to whoever supports Verbatim for you.',
  );
  // The technical message is for the details, never the sentence (nor "its main process").
  await expect(library.results).not.toContainText('TypeError');
  await expect(page.getByText(/main process/)).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  await failure.copy.click();
  await expect(failure.copied).toHaveText('Details copied.');
  const details = await page.evaluate(() => navigator.clipboard.readText());
  expect(details).toContain('Where: library.search');
  expect(details).toMatch(/^Error: TypeError: Cannot read properties of null/m);
  expect(details).toMatch(/^\s+at /m);

  // The same details went to the app's log through log.write, and the host wrote them.
  await expect.poll(() => written.filter((entry) => entry.level === 'error')).toHaveLength(1);
  expect(written[0]).toEqual({
    level: 'error',
    message: 'Unexpected error in the window: library.search',
    details,
  });
  await expect
    .poll(() => readFileSync(host.logFile, 'utf8'))
    .toMatch(/ERROR \[renderer\] Unexpected error in the window: library\.search\n\s+When: /);
  expect(readFileSync(host.logFile, 'utf8')).toMatch(/^\s+Error: TypeError: Cannot read properties of null/m);

  // Searching again with a working host clears it.
  reply = undefined;
  await library.search('ferry');
  await expect(failure.alert).toHaveCount(0);
});

test('a failure nothing caught is shown over the window with its details, and logged', async ({
  shell,
  page,
  context,
  host,
  allowConsole,
}) => {
  // The uncaught failure is the subject: the browser reports it, and the window's console too.
  allowConsole(/^page error: RangeError: Invalid array length/);
  allowConsole(
    /^console error: Verbatim: unexpected error in a failure nothing waited for RangeError: Invalid array length/,
  );
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const written = await interceptBridge(page, () => undefined);
  await shell.open();

  // A promise nobody waits for fails, as a forgotten `void` call would.
  await page.evaluate(() => {
    void Promise.reject(new RangeError('Invalid array length'));
  });
  const panel = new UnexpectedErrorPanel(page.getByRole('region', { name: 'Unexpected error' }));
  await expect(panel.alert).toHaveText(/^Something unexpected went wrong in Verbatim\./);
  expect(await seriousViolations(page)).toEqual([]);
  await panel.copy.click();
  const details = await page.evaluate(() => navigator.clipboard.readText());
  expect(details).toContain('Where: a failure nothing waited for');
  expect(details).toContain('Error: RangeError: Invalid array length');
  await expect.poll(() => written.map((entry) => entry.details)).toEqual([details]);
  await expect
    .poll(() => readFileSync(host.logFile, 'utf8'))
    .toContain('Unexpected error in the window: a failure nothing waited for');

  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(panel.alert).toHaveCount(0);
});
