import type { Locator, Page } from '@playwright/test';
import type { WebHost } from '../../../src/web-host/web-host';

export const viewLabels = {
  library: 'Library',
  new: 'New transcription',
  record: 'Record',
  catalog: 'Catalog',
  assistant: 'Assistant',
  quotes: 'Quotes',
  stories: 'Stories',
  glossary: 'Glossary',
  settings: 'Settings',
} as const;
export type ViewKey = keyof typeof viewLabels;

/** The app frame: navigation, the current view's heading, and the document's theme. */
export class AppShell {
  readonly nav: Locator;
  readonly heading: Locator;

  constructor(
    readonly page: Page,
    private readonly host: WebHost,
  ) {
    this.nav = page.getByRole('navigation', { name: 'Main' });
    this.heading = page.getByRole('main').getByRole('heading', { level: 1 });
  }

  async open(): Promise<void> {
    await this.page.goto(this.host.openUrl);
    await this.heading.waitFor();
  }

  navLink(view: ViewKey): Locator {
    return this.nav.getByRole('link', { name: viewLabels[view] });
  }

  async goTo(view: ViewKey): Promise<void> {
    await this.navLink(view).click();
  }

  theme(): Promise<string | undefined> {
    return this.page.evaluate(() => document.documentElement.dataset.theme);
  }
}
