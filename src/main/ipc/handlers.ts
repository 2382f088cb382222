import type { Handlers, SecretsStatus, TranscriptDetail } from '../../shared/ipc/contract';
import { VerbatimError } from '../../shared/errors';
import { unconfirmedKeyDestinations, type KeyName } from '../../shared/key-destinations';
import type { TranscriptSummary } from '../../shared/library';
import type { SecretName } from '../core/secrets/secret-store';
import { inspectRecording } from '../core/transcription/recording-file';
import { moveDataFolder } from '../core/data-folder/data-folder';
import { createExportHandlers } from './export-handlers';
import { catalogHandlers } from './catalog-handlers';
import { createAskHandlers } from './ask-handlers';
import { createVoiceHandlers } from './voice-handlers';
import { createLogHandlers } from './log-handlers';
import { toSummary, type Services } from './services';
export { toSummary, type Services } from './services';

/** The service JSON for the reader, less the copies of every word the sentences already carry. */
function withoutWordCopies(transcript: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (!transcript) return null;
  const {
    words: _words,
    utterances: _utterances,
    unredacted_utterances: _unredactedUtterances,
    ...rest
  } = transcript;
  return rest;
}

/** The contract implemented over core services; the same object serves every transport. */
export function createHandlers(services: Services): Handlers {
  const { library, scheduler } = services.core;
  const summaryOf = async (id: string): Promise<TranscriptSummary> => {
    const job = await library.get(id);
    if (!job) throw new VerbatimError('not_found', 'This transcript is no longer in your library.', { id });
    return toSummary(job);
  };
  const announce = async (id: string): Promise<TranscriptSummary> => {
    const job = await library.get(id);
    if (!job) throw new VerbatimError('not_found', 'This transcript is no longer in your library.', { id });
    services.jobUpdated.emit(job);
    return toSummary(job);
  };
  return {
    ...catalogHandlers(services, secretsStatus),
    ...createVoiceHandlers(services),
    'app.info': () => Promise.resolve(services.appInfo),
    'app.moveDataFolder': ({ path }) =>
      moveDataFolder({
        db: services.core.db,
        from: services.dataFolder.current,
        to: path,
        defaultFolder: services.dataFolder.home,
      }),
    'app.relaunch': () => {
      if (!services.relaunch) {
        throw new VerbatimError(
          'invalid_input',
          'Restart Verbatim yourself to use the new folder: this window cannot restart it.',
        );
      }
      services.relaunch();
      return Promise.resolve({ relaunching: true });
    },
    'settings.get': () => services.settings.get(),
    'settings.set': async ({ sendKeysTo, ...patch }) => {
      const stored = new Set<KeyName>(
        (['transcriptionKey', 'catalogKey'] as const).filter((name) => services.secrets.peek(name)),
      );
      const [unconfirmed] = unconfirmedKeyDestinations(
        await services.settings.get(),
        patch,
        stored,
        sendKeysTo,
      );
      if (unconfirmed) {
        const key = unconfirmed.key === 'catalogKey' ? 'catalog key' : 'transcription key';
        throw new VerbatimError(
          'forbidden',
          `Verbatim would send your ${key} to ${unconfirmed.origin}. Use this address only if you trust that server.`,
          { origin: unconfirmed.origin, field: unconfirmed.field },
        );
      }
      return services.settings.set(patch);
    },
    'transcripts.create': async (request) => {
      const region = request.region ?? (await services.settings.get()).region;
      return toSummary(await scheduler.submit({ ...request, region }));
    },
    'transcripts.cancel': async ({ id }) => toSummary(await scheduler.cancel(id)),
    'transcripts.retry': async ({ id }) => toSummary(await scheduler.retry(id)),
    'transcripts.list': async (query) => (await library.list(query)).map(toSummary),
    'transcripts.get': async ({ id }): Promise<TranscriptDetail> => ({
      summary: await summaryOf(id),
      sentences: await library.sentences(id),
      // The reader takes every word from the sentences: a second copy of 30,000 words in the
      // paragraphs and a third and fourth in the service JSON would only slow a long transcript.
      paragraphs: (await library.paragraphs(id)).map((paragraph) => ({ ...paragraph, words: [] })),
      transcript: withoutWordCopies(await library.transcriptJson(id)),
    }),
    'transcripts.renameSpeaker': async ({ id, label, name }) => {
      await library.renameSpeaker(id, label, name);
      return announce(id);
    },
    'transcripts.setTitle': async ({ id, title }) => {
      await library.setTitle(id, title);
      return announce(id);
    },
    'transcripts.setTags': async ({ id, tags }) => {
      await library.setTags(id, tags);
      return announce(id);
    },
    'transcripts.delete': async ({ id, remote }) => {
      const job = await library.get(id);
      if (!job) throw new VerbatimError('not_found', 'This transcript is no longer in your library.', { id });
      if (!['completed', 'error', 'cancelled'].includes(job.status)) await scheduler.cancel(id);
      // The service copy goes first: if that fails, nothing is lost locally and the user can retry.
      const remoteDeleted = remote && job.remoteId !== null;
      if (remoteDeleted && job.remoteId) await services.core.clientFor(job.region).delete(job.remoteId);
      await library.delete(id);
      return { deleted: id, remote: remoteDeleted };
    },
    'transcripts.relink': async ({ id, path }) => {
      const info = await inspectRecording(path);
      await library.relink(id, info.path);
      return announce(id);
    },
    'library.search': (request) => library.search(request.query, request.filters, request),
    'secrets.status': () => Promise.resolve(secretsStatus()),
    'secrets.setTranscriptionKey': async ({ key }) => {
      await services.secrets.set('transcriptionKey', key);
      return secretsStatus();
    },
    'secrets.clearTranscriptionKey': async () => {
      await services.secrets.delete('transcriptionKey');
      return secretsStatus();
    },
    'connection.test': async ({ region }) => {
      if (!services.secrets.peek('transcriptionKey')) {
        return { ok: false, message: 'No transcription key is set yet. Enter your key first.' };
      }
      const chosen = region ?? (await services.settings.get()).region;
      try {
        await services.core.clientFor(chosen).list({ limit: 1 });
        return {
          ok: true,
          message: `Connected to the transcription service (${chosen.toUpperCase()} region). Your key works.`,
        };
      } catch (error) {
        return { ok: false, message: error instanceof VerbatimError ? error.message : String(error) };
      }
    },
    ...createExportHandlers({ ...services, library }),
    ...createAskHandlers(services),
    ...createLogHandlers(services),
  };

  function secretsStatus(): SecretsStatus {
    const isSet = (name: SecretName): boolean => services.secrets.peek(name) !== undefined;
    return {
      transcriptionKeySet: isSet('transcriptionKey'),
      catalogKeySet: isSet('catalogKey'),
      managementKeySet: isSet('managementKey'),
    };
  }
}
