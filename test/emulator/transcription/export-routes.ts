import { createReadStream, statSync } from 'node:fs';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { HttpError, sendJson, sendText } from '../http';
import type { EmulatorApp, Region } from '../types';
import { paragraphsOf, sentencesOf } from '../speech/index';
import { requireApiKey } from './auth';
import { captionsOf, toSrt, toVtt, type TimedWord } from './captions';
import { findTranscript } from './transcript-routes';
import type { TranscriptionState, TranscriptRecord } from './transcription-state';
import { MAX_WORDS_PER_SEARCH_TERM, searchWords, termsOf } from './word-search';

const SUBRESOURCE = (name: string): RegExp => new RegExp(`^/v2/transcript/(?<transcriptId>[^/]+)/${name}$`);

/** The exports of a finished transcript exist only once it is completed (400 otherwise). */
function completedFields(record: TranscriptRecord, what: string): Record<string, unknown> {
  if (record.status !== 'completed' || !record.fields) {
    throw new HttpError(400, {
      error: `Transcript ${record.id} has status "${record.status}"; ${what} are available once it is completed`,
    });
  }
  return record.fields;
}

function wordsOf(fields: Record<string, unknown>): TimedWord[] {
  return Array.isArray(fields.words) ? (fields.words as TimedWord[]) : [];
}

/**
 * The redacted audio is served like the real service's pre-signed storage URL: no API key,
 * but a signature derived from the key, the region and the transcript id.
 */
function redactedAudioSignature(key: string, region: Region, id: string): string {
  return createHmac('sha256', key).update(`${region}/${id}`).digest('hex').slice(0, 32);
}

/** Sentences, paragraphs, subtitles, word search and redacted audio of a transcript. */
export function registerExportRoutes(app: EmulatorApp, state: TranscriptionState): void {
  for (const kind of ['sentences', 'paragraphs'] as const) {
    app.route({
      method: 'GET',
      pattern: SUBRESOURCE(kind),
      handler: (ctx) => {
        requireApiKey(ctx, app.options.key);
        const record = findTranscript(state, ctx);
        const fields = completedFields(record, kind);
        const items =
          kind === 'sentences' ? sentencesOf(fields, record.params) : paragraphsOf(fields, record.params);
        sendJson(ctx.res, 200, {
          [kind]: items,
          id: record.id,
          confidence: fields.confidence ?? null,
          audio_duration: fields.audio_duration ?? null,
        });
      },
    });
  }

  app.route({
    method: 'GET',
    pattern: SUBRESOURCE('(?<format>srt|vtt)'),
    handler: (ctx) => {
      requireApiKey(ctx, app.options.key);
      const record = findTranscript(state, ctx);
      const fields = completedFields(record, 'subtitles');
      const charsText = ctx.url.searchParams.get('chars_per_caption');
      const charsPerCaption = charsText === null ? undefined : Number(charsText);
      if (charsPerCaption !== undefined && (!Number.isInteger(charsPerCaption) || charsPerCaption < 1)) {
        throw new HttpError(400, { error: 'chars_per_caption must be a positive integer' });
      }
      const captions = captionsOf(wordsOf(fields), charsPerCaption);
      if (ctx.params.format === 'srt') sendText(ctx.res, 200, toSrt(captions));
      else sendText(ctx.res, 200, toVtt(captions));
    },
  });

  app.route({
    method: 'GET',
    pattern: SUBRESOURCE('word-search'),
    handler: (ctx) => {
      requireApiKey(ctx, app.options.key);
      const record = findTranscript(state, ctx);
      const terms = termsOf(ctx.url.searchParams.getAll('words').join(','));
      if (terms.length === 0)
        throw new HttpError(400, { error: 'words must name at least one word or phrase' });
      const tooLong = terms.find((term) => term.split(/\s+/).length > MAX_WORDS_PER_SEARCH_TERM);
      if (tooLong) {
        throw new HttpError(400, {
          error: `words: "${tooLong}" has more than ${MAX_WORDS_PER_SEARCH_TERM} words; search for phrases of up to ${MAX_WORDS_PER_SEARCH_TERM} words`,
        });
      }
      const matches = searchWords(wordsOf(completedFields(record, 'word searches')), terms);
      sendJson(ctx.res, 200, {
        id: record.id,
        total_count: matches.reduce((total, match) => total + match.count, 0),
        matches,
      });
    },
  });

  app.route({
    method: 'GET',
    pattern: SUBRESOURCE('redacted-audio'),
    handler: (ctx) => {
      requireApiKey(ctx, app.options.key);
      const record = findTranscript(state, ctx);
      if (!record.params.redact_pii_audio) {
        throw new HttpError(400, {
          error: 'Redacted audio is only available for transcripts requested with redact_pii_audio enabled',
        });
      }
      completedFields(record, 'redacted audio files');
      if (!record.redactedAudioPath) {
        throw new HttpError(400, { error: 'The redacted audio was removed when the transcript was deleted' });
      }
      const signature = redactedAudioSignature(app.options.key, ctx.region, record.id);
      sendJson(ctx.res, 200, {
        status: 'redacted_audio_ready',
        redacted_audio_url: `${app.baseUrl(ctx.region)}/v2/redacted-audio/${record.id}.wav?signature=${signature}`,
      });
    },
  });

  app.route({
    method: 'GET',
    pattern: /^\/v2\/redacted-audio\/(?<transcriptId>[^/]+)\.wav$/,
    handler: async (ctx) => {
      const expected = Buffer.from(
        redactedAudioSignature(app.options.key, ctx.region, ctx.params.transcriptId ?? ''),
      );
      const given = Buffer.from(ctx.url.searchParams.get('signature') ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new HttpError(403, { error: 'The signature of this redacted audio URL is missing or wrong' });
      }
      const path = state.transcripts(ctx.region).get(ctx.params.transcriptId ?? '')?.redactedAudioPath;
      if (!path) throw new HttpError(404, { error: 'Redacted audio not found' });
      ctx.res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': statSync(path).size });
      await pipeline(createReadStream(path), ctx.res);
    },
  });
}
