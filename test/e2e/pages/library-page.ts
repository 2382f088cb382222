import type { Locator, Page } from '@playwright/test';
import type { BridgeApi } from '../../../src/shared/ipc/api';
import type { SearchPage, TranscriptSummary } from '../../../src/shared/library';

/** The page's bridge, as the renderer's env.d.ts declares it (that file is not in this project). */
declare const window: Window & { api: BridgeApi };

type Envelope<T> = { ok: true; value: T } | { ok: false; error: { message: string } };

type FilterLabel = 'From' | 'To' | 'Tag' | 'Speaker' | 'Language' | 'Status' | 'Review';

/** The library view: the transcript list, the one search box, filters and bulk actions. */
export class LibraryPage {
  readonly main: Locator;
  readonly searchBox: Locator;
  readonly results: Locator;
  readonly hits: Locator;
  readonly matchCount: Locator;
  readonly rows: Locator;
  readonly emptyState: Locator;
  readonly bulk: Locator;
  readonly deleteDialog: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByRole('main');
    this.searchBox = page.getByRole('searchbox', { name: 'Search every transcript' });
    this.results = page.getByRole('region', { name: 'Search results' });
    this.hits = this.results.getByRole('listitem');
    this.matchCount = this.results.getByRole('status');
    this.rows = page.getByRole('region', { name: 'Transcripts' }).locator('li.row');
    this.emptyState = page.getByRole('heading', { name: 'Your library is empty' });
    this.bulk = page.getByRole('region', { name: 'Selected transcripts' });
    this.deleteDialog = page.getByRole('dialog');
  }

  row(title: string | RegExp): Locator {
    return this.rows.filter({ has: this.page.getByRole('link', { name: title, exact: true }) });
  }

  rowById(id: string): Locator {
    return this.rows.and(this.page.locator(`[data-id="${id}"]`));
  }

  status(row: Locator): Locator {
    return row.locator('.status');
  }

  filter(label: FilterLabel): Locator {
    return this.page.getByRole('group', { name: 'Filters' }).getByLabel(label, { exact: true });
  }

  /** An active filter's chip: its remove button, named after the filter and its value. */
  removeFilter(label: FilterLabel): Locator {
    return this.page
      .getByRole('group', { name: 'Filters' })
      .getByRole('button', { name: new RegExp(`^Remove filter ${label}: `) });
  }

  /** The icon actions at a row's end, shown on hover and focus. */
  rowActions(row: Locator): Locator {
    return row.locator('.actions');
  }

  /** A row's menu of actions, however it was opened. */
  rowMenu(title: string): Locator {
    return this.page.getByRole('menu', { name: `Actions for ${title}` });
  }

  /** How many rows are wholly inside the window, as the user sees them without scrolling. */
  rowsInView(): Promise<number> {
    return this.rows.evaluateAll(
      (rows) =>
        rows.filter((row) => {
          const box = row.getBoundingClientRect();
          return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
        }).length,
    );
  }

  /**
   * Scrolls the transcript list from top to bottom a screenful at a time, as a journalist would:
   * every transcript id shown on the way, and the most rows the page held at once.
   */
  scrollThrough(): Promise<{ ids: string[]; mostRowsInPage: number }> {
    return this.page.getByRole('region', { name: 'Transcripts' }).evaluate(async (list) => {
      const ids = new Set<string>();
      let mostRowsInPage = 0;
      const frame = (): Promise<void> => new Promise((done) => requestAnimationFrame(() => done()));
      list.scrollTop = 0;
      for (;;) {
        await frame();
        await frame();
        const rows = list.querySelectorAll<HTMLElement>('li.row');
        mostRowsInPage = Math.max(mostRowsInPage, rows.length);
        const box = list.getBoundingClientRect();
        for (const row of rows) {
          const at = row.getBoundingClientRect();
          if (at.bottom > box.top && at.top < box.bottom) ids.add(row.dataset.id ?? '');
        }
        if (list.scrollTop + list.clientHeight >= list.scrollHeight - 1) break;
        list.scrollTop += list.clientHeight / 2;
      }
      return { ids: [...ids], mostRowsInPage };
    });
  }

  async search(query: string): Promise<void> {
    await this.searchBox.fill(query);
  }

  async addTagToSelection(tag: string): Promise<void> {
    await this.bulk.getByLabel('Add a tag').fill(tag);
    await this.bulk.getByRole('button', { name: 'Add tag' }).click();
  }

  /** Starts a transcription through the app's own bridge, as the New transcription view would. */
  async create(path: string): Promise<TranscriptSummary> {
    return unwrap<TranscriptSummary>(
      await this.page.evaluate(
        (p) =>
          window.api.transcripts.create({
            source: { kind: 'file', path: p },
            options: { speaker_labels: true },
          }),
        path,
      ),
    );
  }

  async setTitle(id: string, title: string): Promise<TranscriptSummary> {
    return unwrap<TranscriptSummary>(
      await this.page.evaluate(([i, t]) => window.api.transcripts.setTitle({ id: i, title: t }), [
        id,
        title,
      ] as const),
    );
  }

  async list(): Promise<TranscriptSummary[]> {
    return unwrap<TranscriptSummary[]>(await this.page.evaluate(() => window.api.transcripts.list({})));
  }

  async searchApi(query: string): Promise<SearchPage> {
    return unwrap<SearchPage>(
      await this.page.evaluate(
        (q) => window.api.library.search({ query: q, filters: {}, limit: 20, offset: 0 }),
        query,
      ),
    );
  }

  /** Sets the theme through main, as Settings does, and waits for the page to follow. */
  async useTheme(theme: 'light' | 'dark'): Promise<void> {
    unwrap(await this.page.evaluate((t) => window.api.settings.set({ theme: t }), theme));
    await this.page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
  }

  /** Remembers every status a row shows, however briefly, from now on, with "+bar" when a progress bar shows too. */
  async recordStatuses(): Promise<void> {
    await this.page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { statusesSeen: string[] }).statusesSeen = seen;
      const note = (): void => {
        for (const row of document.querySelectorAll('li.row')) {
          const status = row.querySelector('.status')?.textContent?.trim() ?? '';
          const text = row.querySelector('progress') ? `${status} +bar` : status;
          if (status && seen.at(-1) !== text) seen.push(text);
        }
      };
      new MutationObserver(note).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
  }

  statusesSeen(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { statusesSeen: string[] }).statusesSeen);
  }
}

function unwrap<T>(envelope: unknown): T {
  const reply = envelope as Envelope<T>;
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.value;
}
