import { VerbatimError } from '../../../shared/errors';
import { printResult, type CliIo } from '../cli-io';
import { systemClock } from '../../base/clock';
import type { Library, NewsroomPublicationRecord, WaitingOutboxItem } from '../../core/library/library';
import type { Logger } from '../../core/log/logger';
import type { NewsroomAccess } from '../../core/newsroom/newsroom-address';
import { NewsroomConnection } from '../../core/newsroom/newsroom-connection';
import { newsroomIdentity } from '../../core/newsroom/newsroom-desks';
import { publishTranscript, unpublishTranscript } from '../../core/publishing/build-publication';
import { NewsroomPublisher } from '../../core/publishing/newsroom-publisher';
import type { PublishedAudioSources } from '../../core/publishing/published-audio';
import { transcriptOfArgument } from '../transcript-argument';

/** What became of one transcript a command published or unpublished. */
interface PublishOutcome {
  id: string;
  title: string;
  state: 'published' | 'unpublished' | 'waiting' | 'failed';
  /** The revision the archive holds, when published. */
  revision: number | null;
  /** Why it waits (the newsroom could not be reached) or failed. */
  reason: string | null;
  /** What of its audio was not sent, and why. */
  audioNote: string | null;
}

/** The end of a sentence without its full stop, to go inside another. */
function clause(text: string): string {
  return text.trim().replace(/\.$/, '');
}

/**
 * The desk to publish to: the one named, else the reporter's only desk, asked of the newsroom.
 * Unreachable, each transcript goes where it went last time (undefined here).
 */
async function deskToPublishTo(
  access: NewsroomAccess,
  named: string | undefined,
): Promise<string | undefined> {
  if (named !== undefined) return named;
  const newsroom = new NewsroomConnection(access.address, access.password);
  try {
    const { user, desks } = await newsroom.withClient((client) => newsroomIdentity(client));
    const only = desks[0];
    if (desks.length === 1 && only) return only.desk;
    if (desks.length === 0)
      throw new VerbatimError(
        'invalid_input',
        `${user} is on no desk of the newsroom yet: ask its administrator to add you to one, then publish again.`,
      );
    throw new VerbatimError(
      'invalid_input',
      `${user} is on several desks (${desks.map((each) => each.desk).join(', ')}): say which one with --desk NAME.`,
    );
  } catch (error) {
    if (error instanceof VerbatimError && (error.code === 'network' || error.code === 'timeout'))
      return undefined;
    throw error;
  } finally {
    await newsroom.close();
  }
}

async function outcomeOf(
  library: Library,
  id: string,
  title: string,
  waiting: readonly WaitingOutboxItem[],
): Promise<PublishOutcome> {
  const publication = await library.newsroomPublication(id);
  const queued = waiting.find((item) => item.transcriptId === id);
  if (!publication || queued)
    return {
      id,
      title,
      state: 'waiting',
      revision: publication?.revisionPublished ?? null,
      reason: queued?.lastError ?? null,
      audioNote: null,
    };
  return {
    id,
    title,
    state: publication.state === 'failed' ? 'failed' : stateOf(publication),
    revision: publication.revisionPublished,
    reason: publication.error,
    audioNote: publication.state === 'published' ? publication.audioNote : null,
  };
}

function stateOf(publication: NewsroomPublicationRecord): PublishOutcome['state'] {
  if (publication.state === 'published') return 'published';
  if (publication.state === 'unpublished') return 'unpublished';
  if (publication.state === 'failed') return 'failed';
  return 'waiting';
}

function outcomeLine(outcome: PublishOutcome): string {
  const name = `"${outcome.title}" (${outcome.id})`;
  switch (outcome.state) {
    case 'published':
      return `${name}: published rev ${outcome.revision}.${outcome.audioNote ? ` ${outcome.audioNote}` : ''}`;
    case 'unpublished':
      return `${name}: taken out of the newsroom archive.`;
    case 'failed':
      return `${name}: failed: ${clause(outcome.reason ?? 'the newsroom refused it')}.`;
    case 'waiting':
      return outcome.reason
        ? `${name}: waiting to publish (newsroom unreachable: ${clause(outcome.reason)}); \`newsroom outbox --send\` sends it.`
        : `${name}: waiting to publish; \`newsroom outbox --send\` sends it.`;
  }
}

interface Publishing {
  io: CliIo;
  library: Library;
  access: NewsroomAccess;
  logger: Logger;
  json: boolean;
  audio: PublishedAudioSources;
  /** How much audio goes in one chunk; the tests ask for small ones to see an upload resume. */
  audioChunkBytes?: number;
}

/** Sends what waits in the outbox, then closes the sender: a command line does not stay behind. */
async function sendWaiting({ library, access, logger, audio, audioChunkBytes }: Publishing): Promise<void> {
  const publisher = new NewsroomPublisher({
    library,
    access: () => access,
    clock: systemClock,
    logger,
    audio,
    audioChunkBytes,
  });
  try {
    await publisher.kick();
  } finally {
    await publisher.close();
  }
}

/**
 * `newsroom publish <id>...`: each transcript queued in the library as its next revision (in one
 * transaction with its outbox item), then the outbox sent; each transcript's line says what
 * became of it. A transcript that could not be queued, or that the archive refused, failed:
 * the exit code is then 1. One the newsroom could not take for want of a connection waits.
 */
export async function publishCommand(
  run: Publishing,
  ids: readonly string[],
  options: { desk: string | undefined; confidential: boolean; withAudio: boolean },
): Promise<number> {
  const { io, library } = run;
  const desk = await deskToPublishTo(run.access, options.desk);
  const outcomes: PublishOutcome[] = [];
  const queued: { id: string; title: string }[] = [];
  for (const id of ids) {
    const job = await transcriptOfArgument(library, id);
    try {
      const toDesk = desk ?? (await library.newsroomPublication(id))?.desk;
      if (toDesk === undefined)
        throw new VerbatimError(
          'network',
          'The newsroom cannot be reached to find your desk: name it with --desk NAME.',
        );
      await publishTranscript(
        library,
        id,
        { desk: toDesk, confidential: options.confidential, withAudio: options.withAudio },
        run.audio,
      );
      queued.push({ id, title: job.title });
    } catch (error) {
      if (!(error instanceof VerbatimError)) throw error;
      outcomes.push({
        id,
        title: job.title,
        state: 'failed',
        revision: null,
        reason: error.message,
        audioNote: null,
      });
    }
  }
  if (queued.length > 0) await sendWaiting(run);
  const waiting = await library.newsroomOutbox();
  for (const { id, title } of queued) outcomes.push(await outcomeOf(library, id, title, waiting));
  const ordered = ids.flatMap((id) => outcomes.filter((outcome) => outcome.id === id).slice(0, 1));
  printResult(io, run.json, ordered, () => ordered.map(outcomeLine).join('\n'));
  return ordered.some((outcome) => outcome.state === 'failed') ? 1 : 0;
}

/** `newsroom unpublish <id>`: queued as a publish is, then sent. */
export async function unpublishCommand(run: Publishing, id: string): Promise<number> {
  const { io, library } = run;
  const job = await transcriptOfArgument(library, id);
  await unpublishTranscript(library, id);
  await sendWaiting(run);
  const outcome = await outcomeOf(library, id, job.title, await library.newsroomOutbox());
  printResult(io, run.json, outcome, () =>
    outcome.state === 'waiting'
      ? outcomeLine(outcome).replace('waiting to publish', 'waiting to be taken out of the newsroom archive')
      : outcomeLine(outcome),
  );
  return outcome.state === 'failed' ? 1 : 0;
}

/** `newsroom outbox [--send]`: what waits to be sent, after sending it when asked. */
export async function outboxCommand(
  run: Publishing,
  send: boolean,
  titleOf: (id: string) => Promise<string | undefined>,
): Promise<number> {
  const { io, library } = run;
  if (send) await sendWaiting(run);
  const waiting = await library.newsroomOutbox();
  const items = await Promise.all(
    waiting.map(async (item) => ({ ...item, title: (await titleOf(item.transcriptId)) ?? null })),
  );
  printResult(io, run.json, items, () =>
    items.length === 0
      ? 'Nothing waits to be sent to the newsroom.'
      : items
          .map((item) => {
            const what = item.kind === 'publish' ? `publish rev ${item.revision}` : 'unpublish';
            const name = item.title === null ? item.transcriptId : `"${item.title}" (${item.transcriptId})`;
            const why = item.lastError ? `: ${clause(item.lastError)}` : '';
            return `${name}: ${what}, waiting${why}.`;
          })
          .join('\n'),
  );
  return 0;
}
