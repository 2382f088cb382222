import type { Locator, Page } from '@playwright/test';

/** The Glossary view: the glossaries, the open one's entries as rows of fields, adding and CSV. */
export class GlossaryPage {
  readonly list: Locator;
  readonly addForm: Locator;
  readonly search: Locator;
  readonly rows: Locator;
  readonly csvPath: Locator;
  readonly status: Locator;

  constructor(private readonly page: Page) {
    this.list = page.getByRole('navigation', { name: 'Glossaries' });
    this.addForm = page.getByRole('form', { name: 'Add an entry' });
    this.search = page.getByRole('searchbox', { name: 'Find an entry' });
    this.rows = page.locator('tbody tr[data-entry]');
    this.csvPath = page.getByLabel('CSV file (its full path)');
    this.status = page.locator('main [role="status"]');
  }

  glossary(name: string): Locator {
    return this.list.getByRole('button', { name: new RegExp(`^${name}`) });
  }

  async add(entry: { term: string; kind?: string; misheard?: string; note?: string }): Promise<void> {
    await this.addForm.getByLabel('Correct spelling').fill(entry.term);
    if (entry.kind) await this.addForm.getByLabel('Kind').selectOption(entry.kind);
    await this.addForm.getByLabel('Misheard as (commas between)').fill(entry.misheard ?? '');
    await this.addForm.getByLabel('Note').fill(entry.note ?? '');
    await this.addForm.getByRole('button', { name: 'Add' }).click();
  }

  /** An entry's field by what it is and the entry's spelling: "Spelling", "Kind", "Misheard forms", "Note". */
  field(what: 'Spelling' | 'Kind' | 'Misheard forms' | 'Note', term: string): Locator {
    const preposition = what === 'Note' ? 'on' : 'of';
    return this.page.getByLabel(new RegExp(`^${what} ${preposition} “${term}”`));
  }

  async create(name: string): Promise<void> {
    await this.page.getByLabel('New glossary').fill(name);
    await this.page.getByRole('button', { name: 'Create glossary' }).click();
  }
}

/**
 * A newsroom glossary in the Glossary view (issue #36): sharing it, the copy's line, what waits,
 * Pull now, proposing an entry where one may not change it, and the proposals one decides.
 */
export class NewsroomGlossaryPanel {
  readonly share: Locator;
  readonly shareDialog: Locator;
  readonly line: Locator;
  readonly waiting: Locator;
  readonly pullNow: Locator;
  readonly pulled: Locator;
  readonly lost: Locator;
  readonly refusal: Locator;
  readonly propose: Locator;
  readonly proposeDialog: Locator;
  readonly proposed: Locator;
  readonly proposals: Locator;

  constructor(page: Page) {
    this.share = page.getByRole('button', { name: 'Share with the newsroom…' });
    this.shareDialog = page.getByRole('dialog', { name: /^Share “.*” with the newsroom$/ });
    this.line = page.getByTestId('newsroom-glossary-line');
    this.waiting = page.getByTestId('newsroom-glossary-waiting');
    this.pullNow = page.getByRole('button', { name: /^(Pull now|Pulling…)$/ });
    this.pulled = page.getByRole('list', { name: 'What the pull did' });
    this.lost = page.getByRole('list', { name: 'Your changes that were not applied' });
    this.refusal = page.getByTestId('glossary-refusal');
    this.propose = page.getByRole('button', { name: 'Propose an entry…' });
    this.proposeDialog = page.getByRole('dialog', { name: 'Propose an entry' });
    this.proposed = page.getByTestId('glossary-proposed');
    this.proposals = page.getByRole('region', { name: /^\d+ proposals?$/ });
  }

  /** Shares the open glossary with a desk, or with 'The whole newsroom'. */
  async shareWith(desk: string): Promise<void> {
    await this.share.click();
    const select = this.shareDialog.getByLabel('Share with');
    await select.selectOption({ label: desk });
    await this.shareDialog.getByRole('button', { name: 'Share', exact: true }).click();
    await this.shareDialog.waitFor({ state: 'detached' });
  }

  /** Proposes an entry to the open copy through its dialog. */
  async proposeEntry(entry: { term: string; misheard?: string; note?: string }): Promise<void> {
    await this.propose.click();
    await this.proposeDialog.getByLabel('Correct spelling').fill(entry.term);
    await this.proposeDialog.getByLabel('Misheard as').fill(entry.misheard ?? '');
    await this.proposeDialog.getByLabel('Note').fill(entry.note ?? '');
    await this.proposeDialog.getByRole('button', { name: 'Propose', exact: true }).click();
    await this.proposeDialog.waitFor({ state: 'detached' });
  }

  proposal(term: string): Locator {
    return this.proposals.getByRole('listitem').filter({ hasText: term });
  }
}
