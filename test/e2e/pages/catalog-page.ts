import type { Locator, Page } from '@playwright/test';

/** The Catalog view: search and filters, the model list, a model's page, and the cache's state. */
export class CatalogPage {
  readonly search: Locator;
  readonly sort: Locator;
  readonly priceMax: Locator;
  readonly zdrOnly: Locator;
  readonly found: Locator;
  readonly rows: Locator;
  readonly age: Locator;
  readonly refresh: Locator;
  readonly refreshError: Locator;
  readonly counts: Locator;
  readonly countsError: Locator;
  readonly modelPage: Locator;
  readonly endpointRows: Locator;
  readonly endpointsError: Locator;
  readonly announcement: Locator;
  readonly compareTable: Locator;

  constructor(readonly page: Page) {
    this.search = page.getByTestId('catalog-search');
    this.sort = page.getByTestId('catalog-sort');
    this.priceMax = page.getByTestId('price-max');
    this.zdrOnly = page.getByTestId('zdr-only');
    this.found = page.getByTestId('catalog-found');
    this.rows = page.getByTestId('model-row');
    this.age = page.getByTestId('catalog-age');
    this.refresh = page.getByRole('button', { name: 'Refresh', exact: true });
    this.refreshError = page.getByTestId('refresh-error');
    this.counts = page.getByTestId('modality-counts');
    this.countsError = page.getByTestId('counts-error');
    this.modelPage = page.getByTestId('model-page');
    this.endpointRows = page.getByTestId('endpoint-row');
    this.endpointsError = page.getByTestId('endpoints-error');
    this.announcement = page.getByTestId('catalog-announcement');
    this.compareTable = page.getByTestId('compare-table');
  }

  outputFilter(modality: string): Locator {
    return this.page.getByRole('group', { name: 'Produces' }).getByRole('checkbox', { name: modality });
  }

  parameterFilter(parameter: string): Locator {
    return this.page
      .getByRole('group', { name: 'Supports' })
      .getByRole('checkbox', { name: parameter, exact: true });
  }

  row(modelName: string): Locator {
    return this.rows.filter({ has: this.page.getByText(modelName, { exact: true }) });
  }

  async openModel(modelName: string): Promise<void> {
    await this.row(modelName).getByRole('button').click();
    await this.modelPage.getByRole('heading', { name: modelName }).waitFor();
  }

  /** The number of matching models the view reports ("12 of 363 models"). */
  async foundCount(): Promise<number> {
    const text = (await this.found.textContent()) ?? '';
    return Number(/^(\d+) of/.exec(text.trim())?.[1]);
  }
}
