import type { Handlers, TranscriptDetail, TranscriptOpening } from '../../shared/ipc/contract';
import type { TranscriptSummary } from '../../shared/library';
import { inspectRecording } from '../core/transcription/recording-file';
import type { Services } from '../core/app-services';
import { toSummary } from './transcript-summary';
import { LatestSearch } from '../core/library/latest-search';

type TranscriptsHandlers = Pick<
  Handlers,
  Extract<keyof Handlers, `transcripts.${string}` | 'library.search'>
>;

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

/** The library's transcripts: create, follow, read, rename, tag, relink, delete and search. */
export function createTranscriptsHandlers(services: Services): TranscriptsHandlers {
  const { library, scheduler } = services.core;
  // Owned by these handlers: one window's stale keystrokes never wait in line for the database.
  const latestSearch = new LatestSearch();
  /** A change made here is told to every window, as the scheduler's own changes are. */
  const announce = async (id: string): Promise<TranscriptSummary> => {
    const job = await library.requireJob(id);
    services.jobUpdated.emit(job);
    return toSummary(job);
  };
  const detailOf = async (id: string): Promise<TranscriptDetail> => {
    // One snapshot: the sentences and the correction state always agree (library.ts).
    const reading = await library.transcriptReading(id);
    return {
      summary: toSummary(reading.job),
      sentences: reading.sentences,
      // The reader takes every word from the sentences: a second copy of 30,000 words in the
      // paragraphs and a third and fourth in the service JSON would only slow a long
      // transcript, and reading the paragraphs' words only to drop them cost main ~20 ms per
      // open.
      paragraphs: reading.paragraphs,
      transcript: withoutWordCopies(reading.transcript),
      corrections: reading.corrections,
    };
  };
  return {
    'transcripts.create': async ({ glossaryIds, ...request }) => {
      const region = request.region ?? (await services.settings.get()).region;
      const options = await services.core.glossaries.optionsFor(request.options, { glossaryIds });
      return toSummary(await scheduler.submit({ ...request, options, region }));
    },
    'transcripts.cancel': async ({ id }) => toSummary(await scheduler.cancel(id)),
    'transcripts.retry': async ({ id }) => toSummary(await scheduler.retry(id)),
    'transcripts.list': async (query) => (await library.list(query)).map(toSummary),
    'transcripts.get': ({ id }) => detailOf(id),
    'transcripts.opening': async ({ id, sentences }): Promise<TranscriptOpening> => {
      const { job, ...start } = await library.transcriptOpening(id, sentences);
      // All of it fits: the whole transcript now, rather than a second request for it.
      if (start.complete) return { ...(await detailOf(id)), complete: true };
      return { summary: toSummary(job), ...start, complete: false };
    },
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
    'transcripts.delete': async ({ id, remote, quotesInStories }) => {
      const job = await library.requireJob(id);
      if (!['completed', 'error', 'cancelled'].includes(job.status)) await scheduler.cancel(id);
      // The service copy goes first: if that fails, nothing is lost locally and the user can retry.
      const remoteDeleted = remote && job.remoteId !== null;
      if (remoteDeleted && job.remoteId) await services.core.clientFor(job.region).delete(job.remoteId);
      await services.core.deleteTranscript(job, { quotesInStories });
      return { deleted: id, remote: remoteDeleted };
    },
    'transcripts.relink': async ({ id, path }) => {
      const info = await inspectRecording(path);
      await library.relink(id, info.path);
      return announce(id);
    },
    'library.search': ({ searcher, ...request }) =>
      latestSearch.run(searcher, () => library.search(request.query, request.filters, request)),
  };
}
