import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, fixtureDir, speed } from './fixtures';
import { AppShell } from './pages/app-shell';
import { CorrectionsPage } from './pages/corrections-page';
import { GlossaryPage, NewsroomGlossaryPanel } from './pages/glossary-page';
import { NewsroomSection } from './pages/newsroom-section';
import { startSampleE2eNewsroom, type SampleE2eNewsroom } from './newsroom-postgres.test-kit';
import { startWebApp, type WebApp } from '../../src/web-host/start';
import { passwordOf } from '../../src/main/core/newsroom/newsroom-archive.test-kit';
import { glossaryProposals, shareGlossary } from '../../src/main/core/newsroom/newsroom-glossaries';
import { mayNotChange } from '../../src/shared/glossary/newsroom-glossary';

/**
 * A newsroom glossary between two people (issue #36, point 1), each with a web host of their own
 * over a real PostgreSQL: ana shares "City names" with City; ben's open window gets the copy
 * without a reload, read only for him with the reason, and he proposes "Brennan"; ana, its owner,
 * accepts it, and it reaches ben's window by itself within seconds. A correction in ben's reader
 * goes to the newsroom glossary as a proposal.
 */
let newsroom: SampleE2eNewsroom;

test.beforeAll(async () => {
  newsroom = await startSampleE2eNewsroom();
});

test.afterAll(async () => {
  await newsroom.stop();
});

/** Signs this window's app in to the newsroom as `user`, then opens the Glossary view. */
async function signIn(shell: AppShell, page: Page, user: string): Promise<void> {
  await shell.open();
  await shell.goTo('settings');
  const section = new NewsroomSection(page);
  await section.open();
  await section.saveAs(newsroom.addressOf(user), passwordOf(user));
  await shell.goTo('glossary');
}

test('ana shares a glossary with City; ben sees it live, proposes an entry, and gets it once ana accepts', async ({
  shell,
  page,
  emulator,
}) => {
  test.setTimeout(60_000);
  // ben: a second app with its own library, in a second window of the same browser.
  const benDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-ben-'));
  let benHost: WebApp | undefined;
  try {
    benHost = await startWebApp({
      dataDir: benDir,
      apiKey: emulator.options.key,
      transcriptionUrl: emulator.url,
      gatewayUrl: emulator.url,
      timeScale: speed,
    });
    const benPage = await page.context().newPage();
    const benShell = new AppShell(benPage, benHost);
    await signIn(benShell, benPage, 'ben');
    const benGlossary = new GlossaryPage(benPage);
    const benNewsroom = new NewsroomGlossaryPanel(benPage);
    await expect(benGlossary.glossary('General')).toBeVisible();

    // ana makes a glossary of her own and shares it with her desk.
    await signIn(shell, page, 'ana');
    const anaGlossary = new GlossaryPage(page);
    const anaNewsroom = new NewsroomGlossaryPanel(page);
    await anaGlossary.create('City names');
    await anaGlossary.add({ term: 'Okonkwo', kind: 'person', misheard: 'Okonko' });
    await expect(anaGlossary.rows).toHaveCount(1);
    await expect(anaNewsroom.line).toHaveCount(0);
    await anaNewsroom.shareWith('City');
    await expect(anaNewsroom.line).toHaveText('Shared with City · owner ana · you may change it');
    await expect(anaNewsroom.share).toHaveCount(0);
    const deleteCopy = page.getByRole('button', { name: 'Delete…' });
    await expect(deleteCopy).toBeDisabled();
    await expect(deleteCopy).toHaveAttribute('title', /is the newsroom's glossary, shared with City/);

    // ben's window, never reloaded, gets the copy; he may not change it, and is told why.
    await expect(benGlossary.glossary('City names')).toBeVisible({ timeout: 10_000 });
    await benGlossary.glossary('City names').click();
    await expect(benNewsroom.line).toHaveText('Shared with City · owner ana · editors and ana change it');
    await expect(benGlossary.field('Spelling', 'Okonkwo')).toHaveValue('Okonkwo');
    const reason = mayNotChange({ name: 'City names', owner: 'ana', desk: 'City' });
    await expect(benNewsroom.refusal).toHaveText(reason);
    for (const what of ['Spelling', 'Kind', 'Misheard forms', 'Note'] as const) {
      await expect(benGlossary.field(what, 'Okonkwo')).toBeDisabled();
      await expect(benGlossary.field(what, 'Okonkwo')).toHaveAttribute('title', reason);
    }
    await expect(benPage.getByRole('button', { name: 'Remove “Okonkwo”' })).toBeDisabled();
    await expect(benPage.getByRole('button', { name: 'Import CSV…' })).toBeDisabled();
    await expect(benGlossary.addForm).toHaveCount(0);

    // ana looks at another glossary meanwhile.
    await anaGlossary.glossary('General').click();

    // ben proposes Brennan, by keyboard from the button.
    await benNewsroom.propose.focus();
    await benNewsroom.propose.press('Enter');
    await expect(benNewsroom.proposeDialog).toBeVisible();
    await benNewsroom.proposeDialog.getByRole('button', { name: 'Cancel' }).click();
    await benNewsroom.proposeEntry({ term: 'Brennan', misheard: 'Brenan', note: 'Harbour master' });
    await expect(benNewsroom.proposed).toHaveText(
      'Proposed “Brennan” to ana and the editors of City: they decide whether it goes in.',
    );
    await expect(benGlossary.rows).toHaveCount(1);

    // ana, its owner, is told; the notice opens the glossary, where she accepts the proposal.
    await page.getByRole('button', { name: 'Notices, 1 unread' }).click({ timeout: 10_000 });
    await page
      .getByRole('list', { name: 'Notices, newest first' })
      .getByRole('button', { name: /ben proposes “Brennan” for “City names”/ })
      .click();
    await expect(anaGlossary.glossary('City names')).toHaveAttribute('aria-current', 'true');
    await expect(anaNewsroom.proposals).toHaveAccessibleName('1 proposal', { timeout: 10_000 });
    await expect(anaNewsroom.proposal('Brennan')).toContainText('proposed by ben');
    await anaNewsroom.proposals.getByRole('button', { name: 'Accept “Brennan”' }).click();
    await expect(anaNewsroom.proposals).toHaveCount(0);
    await expect(anaGlossary.field('Spelling', 'Brennan')).toHaveValue('Brennan', { timeout: 10_000 });

    // ben's window shows Brennan by itself, without a reload.
    await expect(benGlossary.field('Spelling', 'Brennan')).toHaveValue('Brennan', { timeout: 5_000 });
    await expect(benGlossary.field('Misheard forms', 'Brennan')).toHaveValue('Brenan');
    await expect(benNewsroom.waiting).toHaveCount(0);

    // Pull now says there is nothing more.
    await benNewsroom.pullNow.click();
    await expect(benNewsroom.pulled).toHaveText('Your newsroom glossaries are up to date.');
    await benPage.close();
  } finally {
    await benHost?.close();
    rmSync(benDir, { recursive: true, force: true });
  }
});

test('a correction in the reader is proposed to the newsroom glossary where one may not change it', async ({
  shell,
  page,
}) => {
  test.setTimeout(60_000);
  // ana shares "Harbour places" with City from her own app (here straight to the newsroom).
  const ana = newsroom.connectAs('ana');
  const glossaryId = randomUUID();
  try {
    await shareGlossary(
      ana,
      {
        id: glossaryId,
        name: 'Harbour places',
        desk: 'City',
        entries: [{ term: 'Port Hollow', kind: 'place', misheard: [], note: '' }],
      },
      randomUUID,
    );
    await signIn(shell, page, 'ben');
    await expect(new GlossaryPage(page).glossary('Harbour places')).toBeVisible({ timeout: 10_000 });

    const corrections = new CorrectionsPage(page);
    await corrections.reader.openNewTranscript(join(fixtureDir, 'interview-ferry-contract.wav'), {});
    await corrections.retype('Gull', 'Gall');
    const offers = page.getByRole('list', { name: 'Spellings to keep' });
    await offers.getByRole('button', { name: 'Add to the newsroom glossary…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Propose an entry' });
    await expect(dialog.getByLabel('Correct spelling')).toHaveValue('Gall');
    await expect(dialog.getByLabel('Misheard as')).toHaveValue('Gull');
    // Only the newsroom glossaries' copies are offered (City names too when the test above ran).
    const glossaryChoice = dialog.getByLabel('Glossary');
    await expect(glossaryChoice.getByRole('option', { name: 'General' })).toHaveCount(0);
    await glossaryChoice.selectOption({ label: 'Harbour places' });
    await expect(dialog.getByTestId('dialog-newsroom-line')).toHaveText(
      'Shared with City · owner ana · editors and ana change it',
    );
    await dialog.getByLabel('Kind').selectOption('place');
    await dialog.getByRole('button', { name: 'Propose', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(corrections.reader.notice).toHaveText(
      'Proposed “Gall” to ana and the editors of City: they decide whether it goes in.',
    );
    await expect(offers).toBeHidden();

    // The proposal reaches the newsroom by itself, as ben's, for ana to decide.
    await expect
      .poll(async () =>
        (await glossaryProposals(ana))
          .filter((each) => each.glossaryId === glossaryId)
          .map((each) => [each.proposedBy, each.entry.term, each.entry.misheard]),
      )
      .toEqual([['ben', 'Gall', ['Gull']]]);
  } finally {
    await ana.close();
  }
});
