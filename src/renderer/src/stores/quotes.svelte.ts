import type { HighlightLabel, Quote, QuoteFilters } from '../../../shared/highlights';
import type { TranscriptSummary } from '../../../shared/library';
import { dayEnd, dayStart } from '../components/library/library-format';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';

const debounceMs = 120;

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
 * The Quotes view (issue #20): every highlight of the library matching the filters and the
 * search. As in the library's search a keystroke supersedes the query before it: the request
 * waits a moment for the next keystroke, and only the newest answer is shown.
 */
class QuotesStore {
  quotes = $state.raw<Quote[]>([]);
  total = $state(0);
  loaded = $state(false);
  error = $state<Problem | undefined>(undefined);
  query = $state('');
  filters = $state<QuoteFilterForm>({ ...emptyQuoteFilters });
  labels = $state.raw<HighlightLabel[]>([]);
  /** For the transcript and tag filters. */
  transcripts = $state.raw<TranscriptSummary[]>([]);
  /** The speakers' names the quotes shown so far carry, for the speaker filter. */
  speakers = $derived([
    ...new Set(this.quotes.map((quote) => quote.speakerName).filter((name): name is string => !!name)),
  ]);
  tags = $derived([...new Set(this.transcripts.flatMap((transcript) => transcript.tags))].sort());

  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** Loads and follows main's changes; the returned function stops (and drops a waiting search). */
  start(): () => void {
    const stops = [
      api.on('highlights.changed', () => void this.load()),
      api.on('job.updated', () => void this.loadTranscripts()),
    ];
    void this.loadLabels();
    void this.loadTranscripts();
    void this.load();
    return () => {
      for (const stop of stops) stop();
      clearTimeout(this.timer);
    };
  }

  setQuery(query: string): void {
    this.query = query;
    this.schedule();
  }

  setFilter<K extends keyof QuoteFilterForm>(key: K, value: QuoteFilterForm[K]): void {
    this.filters = { ...this.filters, [key]: value };
    this.schedule();
  }

  clearFilters(): void {
    this.filters = { ...emptyQuoteFilters };
    this.schedule();
  }

  hasFilters = $derived(Object.values(this.filters).some((value) => value !== ''));

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.load(), debounceMs);
  }

  async load(): Promise<void> {
    const seq = ++this.seq;
    try {
      const page = await api.quotes.list({ ...quoteFilters(this.query, this.filters), limit: 2000 });
      if (seq !== this.seq) return;
      this.quotes = page.quotes;
      this.total = page.total;
      this.error = undefined;
    } catch (error) {
      if (seq !== this.seq) return;
      this.error = caught(error, 'quotes.list');
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

  private async loadTranscripts(): Promise<void> {
    try {
      this.transcripts = await api.transcripts.list({ limit: 1000 });
    } catch (error) {
      this.error = caught(error, 'transcripts.list');
    }
  }
}

export const quotes = new QuotesStore();
