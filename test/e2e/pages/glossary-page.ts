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
