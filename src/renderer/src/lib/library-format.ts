import { finishedStatuses, type JobStatus, type TranscriptSummary } from '../../../shared/library';
import { languageName } from '../../../shared/display-format';
import { notFullyChecked, reviewProgress } from './review';

/** Pure helpers of the library view, kept apart from the store so they are unit-tested without a DOM. */

/** 73_400 → "00:01:13". Clock time, so a 3-hour interview reads "03:00:00". */
export function formatClock(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return '—';
  const total = Math.floor(ms / 1000);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}`;
}

export const statusLabels: Record<JobStatus, string> = {
  uploading: 'Uploading',
  submitting: 'Submitting',
  queued: 'Queued',
  processing: 'Transcribing',
  fetching: 'Saving',
  completed: 'Completed',
  error: 'Failed',
  cancelled: 'Cancelled',
};

export function isRunning(summary: Pick<TranscriptSummary, 'status'>): boolean {
  return !finishedStatuses.includes(summary.status);
}

/** The fraction of the upload sent, or undefined when there is no byte count to show. */
export function uploadFraction(
  summary: Pick<TranscriptSummary, 'status' | 'bytesSent' | 'bytesTotal'>,
): number | undefined {
  if (summary.status !== 'uploading' || !summary.bytesTotal) return undefined;
  return Math.min(1, Math.max(0, summary.bytesSent / summary.bytesTotal));
}

/** "Uploading 45 %" while bytes go out, then the state in words. */
/**
 * A language's name without its region ("English" for en_us), for a narrow column; the full
 * name (languageName) goes in its tooltip. A code it cannot name stays as the service sent it.
 */
export function languageShortName(code: string): string {
  const base = code.trim().split(/[-_]/)[0] ?? '';
  const name = languageName(base);
  return name === base ? code : name;
}

export function statusText(summary: Pick<TranscriptSummary, 'status' | 'bytesSent' | 'bytesTotal'>): string {
  const fraction = uploadFraction(summary);
  if (fraction !== undefined) return `Uploading ${Math.floor(fraction * 100)} %`;
  return statusLabels[summary.status];
}

/** A capped count ("1,000+ matches" when there are more than were counted). */
function formatCappedCount(total: number, lowerBound: boolean, one: string, many: string): string {
  const number = total.toLocaleString('en-US');
  if (lowerBound) return `${number}+ ${many}`;
  return `${number} ${total === 1 ? one : many}`;
}

/** "2 matches", "1 match", "1,000+ matches". */
export function formatMatchCount(total: number, lowerBound: boolean): string {
  return formatCappedCount(total, lowerBound, 'match', 'matches');
}

/** "1 quote", "240 quotes", "1,000+ quotes". */
export function formatQuoteCount(total: number, lowerBound: boolean): string {
  return formatCappedCount(total, lowerBound, 'quote', 'quotes');
}

export function speakerName(speaker: TranscriptSummary['speakers'][number]): string {
  return speaker.name ?? `Speaker ${speaker.label}`;
}

export function speakerNames(summary: Pick<TranscriptSummary, 'speakers'>): string[] {
  return summary.speakers.map(speakerName);
}

/** The filter form as the user fills it: empty strings mean "any". Dates are yyyy-mm-dd. */
export interface FilterForm {
  from: string;
  to: string;
  tag: string;
  speaker: string;
  language: string;
  status: JobStatus | '';
  /** "unchecked": only transcripts with paragraphs not yet checked against the audio. */
  review: ReviewFilter;
}

export type ReviewFilter = '' | 'unchecked';

export const emptyFilters: FilterForm = {
  from: '',
  to: '',
  tag: '',
  speaker: '',
  language: '',
  status: '',
  review: '',
};

/** Local calendar days to the service's epoch milliseconds; "to" covers its whole day. */
export function dayStart(day: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).getTime();
}

export function dayEnd(day: string): number | undefined {
  const start = dayStart(day);
  if (start === undefined) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + 1).getTime() - 1;
}

/** The same filters the search applies, applied to the list of transcripts. */
export function matchesFilters(summary: TranscriptSummary, form: FilterForm): boolean {
  const from = dayStart(form.from);
  const to = dayEnd(form.to);
  if (from !== undefined && summary.createdAt < from) return false;
  if (to !== undefined && summary.createdAt > to) return false;
  if (form.status && summary.status !== form.status) return false;
  if (form.review === 'unchecked' && !notFullyChecked(summary.review)) return false;
  if (form.tag && !summary.tags.includes(form.tag)) return false;
  if (form.language) {
    const code = summary.languageCode ?? '';
    if (code !== form.language && !code.startsWith(`${form.language}_`)) return false;
  }
  if (form.speaker) {
    const wanted = form.speaker.toLowerCase();
    const found = summary.speakers.some(
      (speaker) => speaker.label === form.speaker || speaker.name?.toLowerCase() === wanted,
    );
    if (!found) return false;
  }
  return true;
}

/** "Checked 7/20", "Fully checked", or '' while there is nothing to check. */
export function reviewLabel(summary: Pick<TranscriptSummary, 'review'>): string {
  return reviewProgress(summary.review.checked, summary.review.paragraphs).short;
}

/** "3 corrections", or '' before the first one. */
export function correctionsLabel(summary: Pick<TranscriptSummary, 'corrections'>): string {
  if (summary.corrections <= 0) return '';
  return `${summary.corrections} ${summary.corrections === 1 ? 'correction' : 'corrections'}`;
}

/** Newest first, as main lists them; an update replaces its row, a new job goes on top. */
export function upsert(list: TranscriptSummary[], summary: TranscriptSummary): TranscriptSummary[] {
  const rest = list.filter((item) => item.id !== summary.id);
  return [...rest, summary].sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id));
}

/** The ids between two rows inclusive, in list order: what a shift-click selects. */
export function rangeBetween(ids: readonly string[], anchor: string, target: string): string[] {
  const a = ids.indexOf(anchor);
  const b = ids.indexOf(target);
  if (a < 0 || b < 0) return [target];
  return ids.slice(Math.min(a, b), Math.max(a, b) + 1);
}
