import type { Locator, Page } from '@playwright/test';

/** The reader's export dialog: format, options, preview of page one, where to save, Save. */
export class ExportDialog {
  readonly dialog: Locator;
  readonly format: Locator;
  readonly preview: Locator;
  readonly path: Locator;
  readonly save: Locator;
  readonly status: Locator;
  readonly warnings: Locator;
  readonly onlySelection: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Export transcript' });
    this.format = this.dialog.getByLabel('Format');
    this.preview = this.dialog.getByTestId('export-preview');
    this.path = this.dialog.getByLabel('Save to (full path)');
    this.save = this.dialog.getByRole('button', { name: 'Save', exact: true });
    this.status = this.dialog.getByRole('status');
    this.warnings = this.dialog.getByRole('list', { name: 'Warnings' });
    this.onlySelection = this.dialog.getByLabel(/Only the selection/);
  }

  async openFromReader(): Promise<void> {
    // In the reader header's "More" menu.
    await this.page.getByRole('button', { name: 'More actions' }).click();
    await this.page.getByRole('menuitem', { name: 'Export…' }).click();
    await this.dialog.waitFor();
  }

  option(label: string | RegExp): Locator {
    return this.dialog.getByLabel(label);
  }
}

/** The library's bulk export: format, options, a folder, then progress and one result per transcript. */
export class BulkExportDialog {
  readonly dialog: Locator;
  readonly format: Locator;
  readonly folder: Locator;
  readonly start: Locator;
  readonly progress: Locator;
  readonly results: Locator;
  readonly status: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: /^Export \d+ transcripts?$/ });
    this.format = this.dialog.getByLabel('Format');
    this.folder = this.dialog.getByLabel('Into the folder');
    this.start = this.dialog.getByRole('button', { name: 'Export', exact: true });
    this.progress = this.dialog.getByRole('progressbar');
    this.results = this.dialog.getByRole('list', { name: 'Export results' }).getByRole('listitem');
    this.status = this.dialog.getByRole('status');
  }

  async openFromLibrary(): Promise<void> {
    await this.page
      .getByRole('region', { name: 'Selected transcripts' })
      .getByRole('button', { name: 'Export…' })
      .click();
    await this.dialog.waitFor();
  }
}
