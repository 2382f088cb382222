import type { Locator, Page } from '@playwright/test';

export class SettingsPage {
  readonly status: Locator;

  constructor(private readonly page: Page) {
    this.status = page.getByRole('status');
  }

  themeOption(label: 'Follow the system' | 'Light' | 'Dark'): Locator {
    return this.page.getByRole('radio', { name: label });
  }

  async chooseTheme(label: 'Follow the system' | 'Light' | 'Dark'): Promise<void> {
    await this.themeOption(label).check();
    await this.page.getByText('Saved.').waitFor();
  }
}
