import type { Locator, Page } from '@playwright/test';

/** The New transcription form: recordings, link, presets, option groups and Transcribe. */
export class NewTranscriptionPage {
  readonly form: Locator;
  readonly fileInput: Locator;
  readonly files: Locator;
  readonly url: Locator;
  readonly preset: Locator;
  readonly submit: Locator;
  readonly error: Locator;

  constructor(private readonly page: Page) {
    this.form = page.getByRole('form', { name: 'New transcription' });
    this.fileInput = page.locator('#recording-files');
    this.files = page.getByRole('list', { name: 'Chosen recordings' });
    this.url = page.getByLabel('Or a link to a recording');
    this.preset = page.getByLabel('Start from');
    this.submit = page.getByRole('button', { name: 'Transcribe' });
    this.error = this.form.getByRole('alert');
  }

  /** Opens a collapsible group of options (Basics, Analyses, Privacy, Advanced). */
  async openGroup(name: 'Basics' | 'Analyses' | 'Privacy' | 'Advanced'): Promise<void> {
    const details = this.form.locator('details', { has: this.page.locator('summary', { hasText: name }) });
    if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  }

  field(label: string | RegExp): Locator {
    return this.form.getByLabel(label, { exact: typeof label === 'string' });
  }

  /** The inline problem messages of a field (what its aria-describedby points at). */
  async problemOf(field: Locator): Promise<string> {
    const ids = (await field.getAttribute('aria-describedby')) ?? '';
    const texts = await Promise.all(
      ids
        .split(/\s+/)
        .filter((id) => id.endsWith('problems') || id.endsWith('problem'))
        .map((id) => this.page.locator(`[id="${id}"]`).innerText()),
    );
    return texts.join(' ').trim();
  }
}
