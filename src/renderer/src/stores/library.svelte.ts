import { SvelteSet } from 'svelte/reactivity';
import type { QuotesOnDelete } from '../../../shared/highlights';
import type { SearchFilters, SearchHit, SearchPage, TranscriptSummary } from '../../../shared/library';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';
import {
  dayEnd,
  dayStart,
  emptyFilters,
  matchesFilters,
  rangeBetween,
  upsert,
  type FilterForm,
} from '../lib/library-format';

const pageSize = 20;

/** The dialogs an action on some transcripts opens. */
export interface LibraryDialog {
  kind: 'tag' | 'export' | 'glossary' | 'publish' | 'delete';
  ids: string[];
}
/** This window's searches: main runs only the newest of them when several wait (issue #22). */
const searcher = crypto.randomUUID();

/**
 * The library as the renderer sees it: every transcript kept live from main's job events,
 * the one search across all of them, the filters both share, and the multi-selection.
 */
class LibraryStore {
  items = $state<TranscriptSummary[]>([]);
  loaded = $state(false);
  error = $state<Problem | undefined>(undefined);
  /** A short sentence for the polite live region after an action ("Deleted 2 transcripts."). */
  announcement = $state('');

  filters = $state<FilterForm>({ ...emptyFilters });
  visible = $derived(this.items.filter((item) => matchesFilters(item, this.filters)));

  query = $state('');
  hits = $state<SearchHit[]>([]);
  total = $state(0);
  totalIsLowerBound = $state(false);
  /** How the hits are ordered: by relevance, or by relevance among the most recent matches. */
  ranking = $state<SearchPage['ranking']>('relevance');
  searching = $state(false);
  searchError = $state<Problem | undefined>(undefined);
  /** The query the shown hits answer: until the first answer comes, the view says "Searching…". */
  answered = $state<string | undefined>(undefined);

  selected = new SvelteSet<string>();
  private anchor: string | undefined;

  private searchSeq = 0;
  private unsubscribe: (() => void)[] = [];

  /** Jobs announced while a listing is on its way: newer than what the listing may say. */
  private arrivedDuringLoad: Map<string, TranscriptSummary> | undefined;

  /** Loads the list and follows main's events; the returned function stops following. */
  start(): () => void {
    this.unsubscribe.push(
      api.on('job.updated', (summary) => {
        this.arrivedDuringLoad?.set(summary.id, summary);
        this.items = upsert(this.items, summary);
      }),
      api.on('job.progress', ({ id, bytesSent, bytesTotal }) => {
        this.items = this.items.map((item) => (item.id === id ? { ...item, bytesSent, bytesTotal } : item));
      }),
    );
    void this.load();
    return () => {
      for (const stop of this.unsubscribe.splice(0)) stop();
      // An answer on its way finds nobody listening.
      this.searchSeq++;
    };
  }

  /** The listing is the truth (a transcript deleted elsewhere goes), except for what events said since. */
  async load(): Promise<void> {
    const arrived = new Map<string, TranscriptSummary>();
    this.arrivedDuringLoad = arrived;
    try {
      let items = await api.transcripts.list({ limit: 1000 });
      for (const summary of arrived.values()) items = upsert(items, summary);
      this.items = items;
      this.error = undefined;
      this.pruneSelection();
    } catch (error) {
      this.error = caught(error, 'transcripts.list');
    } finally {
      this.arrivedDuringLoad = undefined;
    }
    this.loaded = true;
  }

  setQuery(query: string): void {
    this.query = query;
    this.scheduleSearch();
  }

  setFilter<K extends keyof FilterForm>(key: K, value: FilterForm[K]): void {
    this.filters = { ...this.filters, [key]: value };
    this.pruneSelection();
    this.scheduleSearch();
  }

  clearFilters(): void {
    this.filters = { ...emptyFilters };
    this.scheduleSearch();
  }

  hasFilters = $derived(Object.values(this.filters).some((value) => value !== ''));

  private scheduleSearch(): void {
    if (!this.query.trim()) {
      // Invalidate any answer still on its way: an empty box shows the list, not old hits.
      this.searchSeq++;
      this.hits = [];
      this.total = 0;
      this.totalIsLowerBound = false;
      this.searching = false;
      this.searchError = undefined;
      this.answered = undefined;
      return;
    }
    this.searching = true;
    // No wait for the next key: main answers in milliseconds and drops what a newer key replaced.
    void this.search(0);
  }

  /** Only the newest request's answer is shown; a slower, older one is dropped. */
  async search(offset: number): Promise<void> {
    const seq = ++this.searchSeq;
    const query = this.query;
    this.searching = true;
    try {
      const page = await api.library.search({
        query,
        filters: this.searchFilters(),
        limit: pageSize,
        offset,
        searcher,
      });
      if (seq !== this.searchSeq) return;
      // The library may change between pages; a sentence already shown is not shown twice.
      const shown = new Set(offset === 0 ? [] : this.hits.map(hitKey));
      this.hits = [...(offset === 0 ? [] : this.hits), ...page.hits.filter((hit) => !shown.has(hitKey(hit)))];
      this.total = page.total;
      this.exhausted = page.hits.length < pageSize;
      this.totalIsLowerBound = page.totalIsLowerBound;
      this.ranking = page.ranking;
      this.searchError = undefined;
      this.answered = query;
    } catch (error) {
      if (seq !== this.searchSeq) return;
      this.searchError = caught(error, 'library.search');
    }
    this.searching = false;
  }

  loadMore(): Promise<void> {
    return this.search(this.hits.length);
  }

  /** Beyond a lower-bound total only a short page tells that the hits have run out. */
  private exhausted = $state(false);
  hasMore = $derived(this.hits.length < this.total || (this.totalIsLowerBound && !this.exhausted));

  private searchFilters(): SearchFilters {
    const { from, to, tag, speaker, language, status } = this.filters;
    const filters: SearchFilters = {};
    const fromMs = dayStart(from);
    const toMs = dayEnd(to);
    if (fromMs !== undefined) filters.from = fromMs;
    if (toMs !== undefined) filters.to = toMs;
    if (tag) filters.tag = tag;
    if (speaker) filters.speaker = speaker;
    if (language) filters.language = language;
    if (status) filters.status = status;
    return filters;
  }

  /** A click toggles one row; a shift-click selects every visible row from the last one clicked. */
  toggle(id: string, range: boolean): void {
    if (range && this.anchor && this.anchor !== id) {
      const ids = rangeBetween(
        this.visible.map((item) => item.id),
        this.anchor,
        id,
      );
      for (const each of ids) this.selected.add(each);
    } else if (this.selected.has(id)) {
      this.selected.delete(id);
    } else {
      this.selected.add(id);
    }
    this.anchor = id;
  }

  toggleAll(): void {
    const allSelected = this.visible.length > 0 && this.visible.every((item) => this.selected.has(item.id));
    if (allSelected) this.selected.clear();
    else for (const item of this.visible) this.selected.add(item.id);
  }

  private pruneSelection(): void {
    const shown = new Set(this.visible.map((item) => item.id));
    for (const id of [...this.selected]) if (!shown.has(id)) this.selected.delete(id);
  }

  async retry(id: string): Promise<void> {
    await this.act('transcripts.retry', async () => {
      this.items = upsert(this.items, await api.transcripts.retry({ id }));
    });
  }

  async cancel(id: string): Promise<void> {
    await this.act('transcripts.cancel', async () => {
      this.items = upsert(this.items, await api.transcripts.cancel({ id }));
    });
  }

  /** Adds one tag to each of these transcripts, keeping the tags each already has. */
  async tagTranscripts(ids: readonly string[], tag: string): Promise<void> {
    const name = tag.trim();
    if (!name) return;
    const targets = this.items.filter((item) => ids.includes(item.id));
    await this.act('transcripts.setTags', async () => {
      for (const item of targets) {
        if (item.tags.includes(name)) continue;
        this.items = upsert(
          this.items,
          await api.transcripts.setTags({ id: item.id, tags: [...item.tags, name] }),
        );
      }
      this.announcement = `Tagged ${plural(targets.length)} “${name}”.`;
    });
  }

  /** `quotesInStories`: what becomes of their quotes in stories (kept as text, or removed). */
  async deleteTranscripts(
    ids: readonly string[],
    remote: boolean,
    quotesInStories: QuotesOnDelete = 'keep-as-text',
  ): Promise<void> {
    await this.act('transcripts.delete', async () => {
      for (const id of ids) {
        await api.transcripts.delete({ id, remote, quotesInStories });
        this.items = this.items.filter((item) => item.id !== id);
        this.hits = this.hits.filter((hit) => hit.transcriptId !== id);
        this.selected.delete(id);
      }
      this.announcement = `Deleted ${plural(ids.length)}.`;
    });
  }

  /**
   * The dialog a transcript action opened (from the bulk bar or a row's menu), with the
   * transcripts it acts on, fixed when it opens.
   */
  dialog = $state<LibraryDialog | undefined>(undefined);

  openDialog(kind: LibraryDialog['kind'], ids: readonly string[]): void {
    this.dialog = { kind, ids: [...ids] };
  }

  private async act(context: string, action: () => Promise<void>): Promise<void> {
    this.error = undefined;
    try {
      await action();
    } catch (error) {
      this.error = caught(error, context);
    }
  }
}

export function hitKey(hit: SearchHit): string {
  return `${hit.transcriptId}:${hit.sentencePosition}`;
}

function plural(count: number): string {
  return `${count} ${count === 1 ? 'transcript' : 'transcripts'}`;
}

export const library = new LibraryStore();
