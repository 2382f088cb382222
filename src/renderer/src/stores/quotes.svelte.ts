import type { HighlightLabel, Quote, QuoteFacets, QuoteFilters } from '../../../shared/highlights';
import { dayEnd, dayStart } from '../lib/library-format';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';

export interface QuoteFilterForm {
  labelId: number | '';
  speaker: string;
  tag: string;
  transcriptId: string;
  /** Calendar days (yyyy-mm-dd) of the recording, as the library's filters. */
  from: string;
  to: string;
}

export const emptyQuoteFilters: QuoteFilterForm = {
  labelId: '',
  speaker: '',
  tag: '',
  transcriptId: '',
  from: '',
  to: '',
};

/** The form's filters as the contract takes them: empty fields left out. */
export function quoteFilters(query: string, form: QuoteFilterForm): QuoteFilters {
  const filters: QuoteFilters = {};
  if (query.trim()) filters.query = query.trim();
  if (form.labelId !== '') filters.labelId = form.labelId;
  if (form.speaker) filters.speaker = form.speaker;
  if (form.tag) filters.tag = form.tag;
  if (form.transcriptId) filters.transcriptId = form.transcriptId;
  const from = dayStart(form.from);
  const to = dayEnd(form.to);
  if (from !== undefined) filters.from = from;
  if (to !== undefined) filters.to = to;
  return filters;
}

/**
 * A search's first page: enough to fill a tall window a few times, and little to send and
 * check per keystroke (the answer's time grows with its rows: 200 made a keystroke's p95 miss
 * its 16 ms). Scrolling on asks for larger pages.
 */
export const quotesFirstPageSize = 50;
export const quotesPageSize = 200;
/** How close to the end of what is loaded the list asks for the next page. */
const morePagesWithin = 20;

/**
 * The Quotes view (issue #20): every highlight of the library matching the filters and the
 * search, a page at a time as the list scrolls. As in the library's search a keystroke
 * supersedes the query before it: each asks at once and only the newest answer is shown (main
 * answers a page from an index in a few milliseconds, so waiting for the next key would only
 * add delay).
 */
class QuotesStore {
  quotes = $state.raw<Quote[]>([]);
  total = $state(0);
  totalIsLowerBound = $state(false);
  loaded = $state(false);
  error = $state<Problem | undefined>(undefined);
  query = $state('');
  filters = $state<QuoteFilterForm>({ ...emptyQuoteFilters });
  labels = $state.raw<HighlightLabel[]>([]);
  /** The transcripts, speakers and tags that have quotes, for the filters. */
  facets = $state.raw<QuoteFacets>({ transcripts: [], speakers: [], tags: [] });
  /** Counts the searches and filter changes (not a refresh or a next page): the list starts at the top of each. */
  searches = $state(0);

  private seq = 0;
  private loadingMore = false;
  /**
   * A first page or a refresh on its way: no next page is asked for meanwhile, as it would be
   * counted from a list about to be replaced (opening the view asked for the first page twice,
   * and showed each quote twice). State, so the view asks again once it is in.
   */
  private replacing = $state(0);
  /** The last page came back short: there is nothing after it. */
  private exhausted = false;

  /** Loads and follows main's changes; the returned function stops following. */
  start(): () => void {
    const stops = [
      api.on('highlights.changed', () => {
        void this.refresh();
        void this.loadFacets();
      }),
      api.on('job.updated', () => void this.loadFacets()),
    ];
    // The first page first: the filters' choices are not needed to show the quotes.
    void this.load().then(() => Promise.all([this.loadLabels(), this.loadFacets()]));
    return () => {
      for (const stop of stops) stop();
      this.seq++;
    };
  }

  setQuery(query: string): void {
    this.query = query;
    void this.load();
  }

  setFilter<K extends keyof QuoteFilterForm>(key: K, value: QuoteFilterForm[K]): void {
    this.filters = { ...this.filters, [key]: value };
    void this.load();
  }

  clearFilters(): void {
    this.filters = { ...emptyQuoteFilters };
    void this.load();
  }

  hasFilters = $derived(Object.values(this.filters).some((value) => value !== ''));

  /** A new search or filter: its first page, shown from the top. */
  async load(): Promise<void> {
    await this.fetch(0, quotesFirstPageSize, 'replace');
  }

  /** The rows `index` is near the end of what is loaded: the next page, once. */
  async showing(index: number): Promise<void> {
    if (this.replacing > 0 || this.loadingMore || this.exhausted) return;
    if (index < this.quotes.length - morePagesWithin) return;
    this.loadingMore = true;
    try {
      await this.fetch(this.quotes.length, quotesPageSize, 'append');
    } finally {
      this.loadingMore = false;
    }
  }

  /** After a change in main: the quotes loaded so far again, where the journalist is. */
  private async refresh(): Promise<void> {
    await this.fetch(0, Math.max(quotesFirstPageSize, this.quotes.length), 'refresh');
  }

  private async fetch(offset: number, limit: number, mode: 'replace' | 'append' | 'refresh'): Promise<void> {
    const seq = mode === 'append' ? this.seq : ++this.seq;
    if (mode !== 'append') this.replacing++;
    try {
      const page = await api.quotes.list({ ...quoteFilters(this.query, this.filters), limit, offset });
      // A next page follows only the list it was counted from.
      if (seq !== this.seq || (mode === 'append' && offset !== this.quotes.length)) return;
      this.exhausted = page.quotes.length < limit;
      this.quotes = mode === 'append' ? [...this.quotes, ...page.quotes] : page.quotes;
      // A later page counts only from its offset; the first page's total stands.
      if (mode !== 'append') {
        this.total = page.total;
        this.totalIsLowerBound = page.totalIsLowerBound;
      }
      if (mode === 'replace') this.searches++;
      this.error = undefined;
    } catch (error) {
      if (seq !== this.seq) return;
      this.error = caught(error, 'quotes.list');
    } finally {
      if (mode !== 'append') this.replacing--;
    }
    this.loaded = true;
  }

  private async loadLabels(): Promise<void> {
    try {
      this.labels = await api.highlights.labels();
    } catch (error) {
      this.error = caught(error, 'highlights.labels');
    }
  }

  private async loadFacets(): Promise<void> {
    try {
      this.facets = await api.quotes.facets();
    } catch (error) {
      this.error = caught(error, 'quotes.facets');
    }
  }
}

export const quotes = new QuotesStore();
