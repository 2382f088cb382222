import { rmSync } from 'node:fs';
import { HttpError, readJson, sendJson } from '../http';
import type { EmulatorApp, RequestContext } from '../types';
import { requireApiKey } from './auth';
import { startProcessing } from './processing';
import { validateTranscriptRequest } from './request-validation';
import { listTranscripts } from './transcript-list';
import { DELETED_TEXT, transcriptResource } from './transcript-resource';
import type { TranscriptionState, TranscriptRecord } from './transcription-state';

const TRANSCRIPT_PATH = /^\/v2\/transcript\/(?<transcriptId>[^/]+)$/;

/** The transcript named in the path, in the region the request came to; else the service's 404. */
export function findTranscript(state: TranscriptionState, ctx: RequestContext): TranscriptRecord {
  const record = state.transcripts(ctx.region).get(ctx.params.transcriptId ?? '');
  if (!record) throw new HttpError(404, { error: 'Transcript not found' });
  return record;
}

/** Metadata a deleted transcript keeps; its content (text, words, analyses) is removed. */
const KEPT_AFTER_DELETE = [
  'confidence',
  'audio_duration',
  'audio_channels',
  'language_code',
  'language_confidence',
  'speech_model_used',
];

/** POST and GET /v2/transcript, GET and DELETE /v2/transcript/{transcript_id}. */
export function registerTranscriptRoutes(app: EmulatorApp, state: TranscriptionState): void {
  app.route({
    method: 'POST',
    pattern: /^\/v2\/transcript$/,
    handler: async (ctx) => {
      requireApiKey(ctx, app.options.key);
      const validation = validateTranscriptRequest(await readJson(ctx.req));
      if (!validation.ok) throw new HttpError(400, { error: validation.error });
      // What was asked for, for tests that check what an app sends (keyterms, custom spelling).
      ctx.logBody(validation.params);
      const { id, sequence } = state.nextTranscriptId(ctx.region);
      const record: TranscriptRecord = {
        id,
        region: ctx.region,
        sequence,
        createdAt: app.clock.now(),
        completedAt: undefined,
        params: validation.params,
        status: 'queued',
        error: undefined,
        fields: undefined,
        deleted: false,
        webhookStatusCode: undefined,
        redactedAudioPath: undefined,
      };
      state.transcripts(ctx.region).set(id, record);
      startProcessing(app, state, record);
      // The real service answers a created transcript with 200 and the queued resource.
      sendJson(ctx.res, 200, transcriptResource(record));
    },
  });

  app.route({
    method: 'GET',
    pattern: /^\/v2\/transcript$/,
    handler: (ctx) => {
      requireApiKey(ctx, app.options.key);
      sendJson(ctx.res, 200, listTranscripts(app, ctx.region, state.transcripts(ctx.region), ctx.url));
    },
  });

  app.route({
    method: 'GET',
    pattern: TRANSCRIPT_PATH,
    handler: (ctx) => {
      requireApiKey(ctx, app.options.key);
      sendJson(ctx.res, 200, transcriptResource(findTranscript(state, ctx)));
    },
  });

  app.route({
    method: 'DELETE',
    pattern: TRANSCRIPT_PATH,
    handler: (ctx) => {
      requireApiKey(ctx, app.options.key);
      const record = findTranscript(state, ctx);
      if (record.status === 'queued' || record.status === 'processing') {
        throw new HttpError(400, {
          error: `Transcript ${record.id} is ${record.status}; it can be deleted once it is completed or has failed`,
        });
      }
      // As the real service does, the transcript stays (and answers GET) with its content removed.
      record.deleted = true;
      const fields = record.fields;
      if (fields) {
        const kept = KEPT_AFTER_DELETE.filter((name) => name in fields).map((name): [string, unknown] => [
          name,
          fields[name],
        ]);
        record.fields = { ...Object.fromEntries(kept), text: DELETED_TEXT, words: [], utterances: [] };
      }
      if (record.redactedAudioPath) rmSync(record.redactedAudioPath, { force: true });
      record.redactedAudioPath = undefined;
      sendJson(ctx.res, 200, transcriptResource(record));
    },
  });
}
