import type { UploadSource } from './recording-file';
import type { HttpClient } from '../http/http-client';
import { VerbatimError } from '../../../shared/errors';
import {
  checkTranscriptionOptions,
  type TranscriptionOptions,
} from '../../../shared/transcription/request-options';
import type { Region } from '../../../shared/library';
import {
  paragraphsSchema,
  redactedAudioSchema,
  sentencesSchema,
  transcriptListSchema,
  transcriptSchema,
  uploadSchema,
  wordSearchSchema,
  type Transcript,
  type TranscriptList,
  type TranscriptStatus,
  type WordSearch,
} from './schemas';

/** The service's public hosts; every one can be overridden in Settings or the environment. */
export const defaultBaseUrls: Record<Region, string> = {
  us: 'https://api.assemblyai.com',
  eu: 'https://api.eu.assemblyai.com',
};

export interface ListQuery {
  limit?: number;
  status?: TranscriptStatus;
  before_id?: string;
  after_id?: string;
  created_on?: string;
  throttled_only?: boolean;
}

/**
 * Every operation of the transcription service: the ones its spec describes and the ones it
 * advertises (list, delete, subtitles, word search, redacted audio), which follow the real
 * service's public documentation. Options are checked against the spec's limits before
 * anything is sent.
 */
export class TranscriptionClient {
  constructor(private readonly http: HttpClient) {}

  /** Streams a recording to the service; returns the upload URL to transcribe. */
  async upload(body: UploadSource, options: { signal?: AbortSignal } = {}): Promise<string> {
    const result = await this.http.upload({
      path: '/v2/upload',
      body,
      schema: uploadSchema,
      signal: options.signal,
    });
    return result.upload_url;
  }

  /**
   * POST /v2/transcript. Retried only when the service proves it did nothing (429, 503):
   * retrying after an unclear failure could create the transcript twice.
   */
  async create(
    options: TranscriptionOptions & { audio_url: string },
    signal?: AbortSignal,
  ): Promise<Transcript> {
    const checked = checkTranscriptionOptions(options);
    if (!checked.ok) {
      throw new VerbatimError(
        'invalid_input',
        checked.problems.map((problem) => problem.message).join('; '),
        {
          problems: checked.problems,
        },
      );
    }
    return this.http.request({
      method: 'POST',
      path: '/v2/transcript',
      json: checked.options,
      retry: 'rejections',
      schema: transcriptSchema,
      signal,
    });
  }

  get(id: string, signal?: AbortSignal): Promise<Transcript> {
    return this.http.request({
      method: 'GET',
      path: `/v2/transcript/${encodeId(id)}`,
      schema: transcriptSchema,
      signal,
    });
  }

  async sentences(id: string, signal?: AbortSignal) {
    return (
      await this.http.request({
        method: 'GET',
        path: `/v2/transcript/${encodeId(id)}/sentences`,
        schema: sentencesSchema,
        signal,
      })
    ).sentences;
  }

  async paragraphs(id: string, signal?: AbortSignal) {
    return (
      await this.http.request({
        method: 'GET',
        path: `/v2/transcript/${encodeId(id)}/paragraphs`,
        schema: paragraphsSchema,
        signal,
      })
    ).paragraphs;
  }

  list(query: ListQuery = {}, signal?: AbortSignal): Promise<TranscriptList> {
    if (
      query.limit !== undefined &&
      (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > 200)
    ) {
      throw new VerbatimError('invalid_input', 'limit must be a whole number from 1 to 200');
    }
    return this.http.request({
      method: 'GET',
      path: '/v2/transcript',
      query: { ...query },
      schema: transcriptListSchema,
      signal,
    });
  }

  /** Follows a list page's next link (the service gives absolute URLs). */
  listPage(url: string, signal?: AbortSignal): Promise<TranscriptList> {
    const parsed = new URL(url, this.http.baseUrl);
    return this.http.request({
      method: 'GET',
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      schema: transcriptListSchema,
      signal,
    });
  }

  /** Deletes the transcript's data on the service; the service keeps a redacted record. */
  delete(id: string, signal?: AbortSignal): Promise<Transcript> {
    return this.http.request({
      method: 'DELETE',
      path: `/v2/transcript/${encodeId(id)}`,
      schema: transcriptSchema,
      signal,
    });
  }

  subtitles(
    id: string,
    format: 'srt' | 'vtt',
    charsPerCaption?: number,
    signal?: AbortSignal,
  ): Promise<string> {
    if (charsPerCaption !== undefined && (!Number.isInteger(charsPerCaption) || charsPerCaption < 1)) {
      throw new VerbatimError('invalid_input', 'chars_per_caption must be a whole number of 1 or more');
    }
    return this.http.request({
      method: 'GET',
      path: `/v2/transcript/${encodeId(id)}/${format}`,
      query: { chars_per_caption: charsPerCaption },
      responseType: 'text',
      signal,
    });
  }

  wordSearch(id: string, words: string[], signal?: AbortSignal): Promise<WordSearch> {
    const cleaned = words.map((word) => word.trim()).filter(Boolean);
    if (cleaned.length === 0)
      throw new VerbatimError('invalid_input', 'Word search needs at least one word.');
    return this.http.request({
      method: 'GET',
      path: `/v2/transcript/${encodeId(id)}/word-search`,
      query: { words: cleaned.join(',') },
      schema: wordSearchSchema,
      signal,
    });
  }

  redactedAudio(id: string, signal?: AbortSignal) {
    return this.http.request({
      method: 'GET',
      path: `/v2/transcript/${encodeId(id)}/redacted-audio`,
      schema: redactedAudioSchema,
      signal,
    });
  }
}

function encodeId(id: string): string {
  if (!id) throw new VerbatimError('invalid_input', 'A transcript id is needed.');
  return encodeURIComponent(id);
}
