import type { NewsroomHit, NewsroomSearchQuery } from '../../../shared/newsroom-search';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { dayEnd, dayStart } from '../lib/library-format';
import { caught } from '../lib/report-problem';

export type SearchScope = 'library' | 'newsroom';
const scopeKey = 'verbatim.searchScope';
/** Long enough to skip the words typed in a burst, short enough to feel as typed. */
export const newsroomDebounceMs = 120;
/** This window's watch of the newsroom (main listens while any window watches). */
const watcher = crypto.randomUUID();

export interface NewsroomFilters {
  desk: string;
  reporter: string;
  /** yyyy-mm-dd, '' for none. */
  from: string;
  to: string;
}
const noFilters: NewsroomFilters = { desk: '', reporter: '', from: '', to: '' };

export function hitKey(hit: NewsroomHit): string {
  return `${hit.reporter}/${hit.transcriptId}:${hit.sentence.position}`;
}

/**
 * The Library's search scope (issue #35, points 6 and 7): the reporter's own library, or the
 * newsroom's archive searched in main as the reporter of Settings. Newsroom answers come while
 * typing (debounced, an older answer dropped when a newer query was asked), and while the scope
 * is shown main listens to the archive so that a colleague's publish appears by itself.
 */
class NewsroomSearchStore {
  scope = $state<SearchScope>(readScope());
  query = $state('');
  filters = $state<NewsroomFilters>({ ...noFilters });
  hits = $state<NewsroomHit[]>([]);
  total = $state(0);
  totalCapped = $state(false);
  searching = $state(false);
  error = $state<Problem | undefined>(undefined);
  /** Whether Settings name a newsroom; undefined until asked. */
  configured = $state<boolean | undefined>(undefined);
  /** The query the shown hits answer. */
  answered = $state<string | undefined>(undefined);
  /** Desks and reporters seen in answers, for the filter menus. */
  desks = $state<string[]>([]);
  reporters = $state<string[]>([]);

  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopListening: (() => void) | undefined;

  hasFilters = $derived(Object.values(this.filters).some((value) => value !== ''));

  setScope(scope: SearchScope): void {
    this.scope = scope;
    try {
      localStorage.setItem(scopeKey, scope);
    } catch {
      // A window without storage only forgets the choice at the next start.
    }
  }

  /** The newsroom scope is shown: ask whether a newsroom is set, listen, and search what is typed. */
  async enter(): Promise<void> {
    try {
      this.configured = (await api.newsroom.settings()).address !== '';
      this.error = undefined;
    } catch (error) {
      this.error = caught(error, 'newsroom.settings');
      return;
    }
    if (!this.configured) return;
    if (!this.stopListening) {
      const stop = api.on('newsroom.changed', () => {
        if (this.query.trim()) void this.search();
      });
      this.stopListening = stop;
      api.newsroom.watch({ watcher, watching: true }).catch((error: unknown) => {
        // Searching still works; only the live updates are missing, and the log says why.
        caught(error, 'newsroom.watch');
      });
    }
    if (this.query.trim()) void this.search();
  }

  /** The scope or the view was left: main stops listening for this window. */
  leave(): void {
    this.seq++;
    clearTimeout(this.timer);
    if (!this.stopListening) return;
    this.stopListening();
    this.stopListening = undefined;
    void api.newsroom.watch({ watcher, watching: false }).catch((error: unknown) => {
      caught(error, 'newsroom.watch');
    });
  }

  setQuery(query: string): void {
    this.query = query;
    this.schedule();
  }

  setFilter<K extends keyof NewsroomFilters>(key: K, value: NewsroomFilters[K]): void {
    this.filters = { ...this.filters, [key]: value };
    this.schedule();
  }

  clearFilters(): void {
    this.filters = { ...noFilters };
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (!this.query.trim()) {
      this.seq++;
      this.hits = [];
      this.total = 0;
      this.searching = false;
      this.error = undefined;
      this.answered = undefined;
      return;
    }
    this.searching = true;
    this.timer = setTimeout(() => void this.search(), newsroomDebounceMs);
  }

  /** Only the newest request's answer is shown; one a newer query replaced is dropped. */
  async search(): Promise<void> {
    const seq = ++this.seq;
    const query = this.query;
    this.searching = true;
    try {
      const page = await api.newsroom.search(this.request(query));
      if (seq !== this.seq) return;
      this.hits = page.hits;
      this.total = page.total;
      this.totalCapped = page.totalCapped;
      this.desks = merged(
        this.desks,
        page.hits.map((hit) => hit.desk),
      );
      this.reporters = merged(
        this.reporters,
        page.hits.map((hit) => hit.reporter),
      );
      this.error = undefined;
      this.answered = query;
    } catch (error) {
      if (seq !== this.seq) return;
      // The query stays in the box; the sentence says what to do.
      this.error = caught(error, 'newsroom.search');
    }
    this.searching = false;
  }

  /** Asks again after a failure: whether a newsroom is set if that went unanswered, else the search. */
  async retry(): Promise<void> {
    if (this.configured === undefined) await this.enter();
    else await this.search();
  }

  private request(text: string): NewsroomSearchQuery {
    const { desk, reporter, from, to } = this.filters;
    const request: NewsroomSearchQuery = { text, limit: 50 };
    if (desk) request.desk = desk;
    if (reporter) request.reporter = reporter;
    const fromMs = dayStart(from);
    const toMs = dayEnd(to);
    if (fromMs !== undefined) request.from = fromMs;
    // "to" is the last day shown, whole; the newsroom reads `to` as "recorded before".
    if (toMs !== undefined) request.to = toMs + 1;
    return request;
  }
}

function merged(known: readonly string[], seen: readonly string[]): string[] {
  return [...new Set([...known, ...seen])].sort((a, b) => a.localeCompare(b));
}

function readScope(): SearchScope {
  try {
    return localStorage.getItem(scopeKey) === 'newsroom' ? 'newsroom' : 'library';
  } catch {
    return 'library';
  }
}

export const newsroomSearch = new NewsroomSearchStore();
