import type { Locator, Page } from '@playwright/test';

export class SettingsPage {
  readonly status: Locator;
  readonly keyState: Locator;
  readonly keyInput: Locator;
  readonly saveKey: Locator;
  readonly removeKey: Locator;
  readonly testConnection: Locator;
  readonly connectionResult: Locator;

  constructor(private readonly page: Page) {
    this.status = page.getByRole('status');
    this.keyState = page.getByTestId('key-state');
    this.keyInput = page.locator('#transcription-key');
    this.saveKey = page.getByRole('button', { name: 'Save key' });
    this.removeKey = page.getByRole('button', { name: 'Remove key' });
    this.testConnection = page.getByRole('button', { name: 'Test connection' });
    this.connectionResult = page.getByTestId('connection-result');
  }

  themeOption(label: 'Follow the system' | 'Light' | 'Dark'): Locator {
    return this.page.getByRole('radio', { name: label });
  }

  async chooseTheme(label: 'Follow the system' | 'Light' | 'Dark'): Promise<void> {
    await this.themeOption(label).check();
    await this.page.getByText('Saved.', { exact: true }).waitFor();
  }

  async enterKey(key: string): Promise<void> {
    await this.keyInput.fill(key);
    await this.saveKey.click();
    await this.page.getByText('Key saved.').waitFor();
  }

  regionOption(region: 'us' | 'eu'): Locator {
    return this.page.getByRole('radio', {
      name: region === 'us' ? 'United States (US)' : 'European Union (EU)',
    });
  }

  urlOverride(region: 'us' | 'eu'): Locator {
    return this.page.getByLabel(`Service address override (${region.toUpperCase()})`);
  }

  /** Types an address and leaves the field, which saves it when it is valid. */
  async setUrlOverride(region: 'us' | 'eu', url: string): Promise<void> {
    await this.urlOverride(region).fill(url);
    await this.urlOverride(region).press('Tab');
  }

  /** The settings as main stores them, read through the page's bridge. */
  storedSettings(): Promise<unknown> {
    return this.page.evaluate(async () => {
      const bridge = (window as unknown as { api: { settings: { get(): Promise<{ value: unknown }> } } }).api;
      return (await bridge.settings.get()).value;
    });
  }

  /** The message shown under a field (its aria-describedby). */
  async problemOf(field: Locator): Promise<string> {
    const ids = (await field.getAttribute('aria-describedby')) ?? '';
    const texts = await Promise.all(
      ids
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => this.page.locator(`[id="${id}"]`).innerText()),
    );
    return texts.join(' ').trim();
  }
}
