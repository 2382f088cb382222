import { HttpError } from '../http';
import type { EmulatorApp, Region } from '../types';
import { listTimestamp, transcriptListItem } from './transcript-resource';
import type { TranscriptRecord, TranscriptStatus } from './transcription-state';

/**
 * GET /v2/transcript, shaped as the real service documents it: newest first; `prev_url`
 * leads to older transcripts (before_id = the oldest on this page), `next_url` to newer ones
 * (after_id = the newest on this page); each is null when there is nothing that way.
 */

const DEFAULT_LIST_LIMIT = 10;
const MAX_LIST_LIMIT = 200;
const STATUSES: TranscriptStatus[] = ['queued', 'processing', 'completed', 'error'];

interface ListQuery {
  limit: number;
  status: TranscriptStatus | undefined;
  createdOn: string | undefined;
  beforeId: string | undefined;
  afterId: string | undefined;
  throttledOnly: boolean;
}

function badRequest(error: string): HttpError {
  return new HttpError(400, { error });
}

function parseListQuery(query: URLSearchParams): ListQuery {
  const limitText = query.get('limit');
  const limit = limitText === null ? DEFAULT_LIST_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw badRequest(`limit must be an integer from 1 to ${MAX_LIST_LIMIT}`);
  }
  const status = query.get('status') ?? undefined;
  if (status !== undefined && !STATUSES.includes(status as TranscriptStatus)) {
    throw badRequest(`status must be one of: ${STATUSES.join(', ')}`);
  }
  const createdOn = query.get('created_on') ?? undefined;
  if (createdOn !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(createdOn)) {
    throw badRequest('created_on must be a date in the form YYYY-MM-DD');
  }
  const throttled = query.get('throttled_only');
  if (throttled !== null && throttled !== 'true' && throttled !== 'false') {
    throw badRequest('throttled_only must be true or false');
  }
  return {
    limit,
    status: status as TranscriptStatus | undefined,
    createdOn,
    beforeId: query.get('before_id') ?? undefined,
    afterId: query.get('after_id') ?? undefined,
    throttledOnly: throttled === 'true',
  };
}

export function listTranscripts(
  app: EmulatorApp,
  region: Region,
  transcripts: Map<string, TranscriptRecord>,
  url: URL,
): Record<string, unknown> {
  const query = parseListQuery(url.searchParams);
  const sequenceOf = (name: string, id: string | undefined): number | undefined => {
    if (id === undefined) return undefined;
    const record = transcripts.get(id);
    if (!record) throw badRequest(`${name} ${id} is not a transcript of this account`);
    return record.sequence;
  };
  const before = sequenceOf('before_id', query.beforeId);
  const after = sequenceOf('after_id', query.afterId);

  const matching = [...transcripts.values()]
    .filter(
      (record) =>
        // The emulator never throttles, so throttled_only (which overrides status) matches nothing.
        !query.throttledOnly &&
        (query.status === undefined || record.status === query.status) &&
        (query.createdOn === undefined || listTimestamp(record.createdAt).startsWith(query.createdOn)),
    )
    .sort((a, b) => b.sequence - a.sequence);
  const inWindow = matching.filter(
    (record) =>
      (before === undefined || record.sequence < before) && (after === undefined || record.sequence > after),
  );
  // Paging forward (after_id only) takes the transcripts just newer than after_id.
  const page =
    after !== undefined && before === undefined
      ? inWindow.slice(-query.limit)
      : inWindow.slice(0, query.limit);

  const base = `${app.baseUrl(region)}/v2/transcript`;
  const link = (cursor: Record<string, string>): string => {
    const params = new URLSearchParams({ limit: String(query.limit) });
    if (query.status) params.set('status', query.status);
    if (query.createdOn) params.set('created_on', query.createdOn);
    if (query.throttledOnly) params.set('throttled_only', 'true');
    for (const [name, value] of Object.entries(cursor)) params.set(name, value);
    return `${base}?${params.toString()}`;
  };
  const oldest = page.at(-1);
  const newest = page[0];
  const hasOlder = oldest !== undefined && matching.some((record) => record.sequence < oldest.sequence);
  const hasNewer = newest !== undefined && matching.some((record) => record.sequence > newest.sequence);
  return {
    page_details: {
      limit: query.limit,
      result_count: page.length,
      current_url: `${base}${url.search}`,
      prev_url: hasOlder ? link({ before_id: oldest.id }) : null,
      next_url: hasNewer ? link({ after_id: newest.id }) : null,
    },
    transcripts: page.map((record) => transcriptListItem(app, record)),
  };
}
