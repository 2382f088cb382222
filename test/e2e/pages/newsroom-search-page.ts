import type { Locator, Page } from '@playwright/test';

/** The Library's search in its Newsroom scope, and the read-only reader a hit opens. */
export class NewsroomSearchPage {
  readonly scope: Locator;
  readonly myLibrary: Locator;
  readonly newsroom: Locator;
  readonly box: Locator;
  readonly hits: Locator;
  readonly banner: Locator;
  readonly reader: Locator;

  constructor(private readonly page: Page) {
    this.scope = page.getByRole('radiogroup', { name: 'Search in' });
    this.myLibrary = this.scope.getByRole('radio', { name: 'My library' });
    this.newsroom = this.scope.getByRole('radio', { name: 'Newsroom' });
    this.box = page.getByRole('searchbox', { name: 'Search the newsroom' });
    this.hits = page.locator('#newsroom-hits > li');
    this.banner = page.getByTestId('newsroom-banner');
    this.reader = page.getByTestId('newsroom-reader');
  }

  /** The hit whose title is `title`. */
  hit(title: string): Locator {
    return this.hits.filter({ hasText: title });
  }
}
