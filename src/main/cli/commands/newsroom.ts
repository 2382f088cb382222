import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { dataFolderOf, newsroomAccessOf, newsroomAudioChunkBytesOf } from '../environment';
import { speakerPrefix, timestamp } from '../job-lines';
import { UsageError } from '../usage-error';
import { outboxCommand, publishCommand, unpublishCommand } from './newsroom-publishing';
import { VerbatimError } from '../../../shared/errors';
import type { TextChoice } from '../../../shared/redaction';
import type { NewsroomSearchPage, NewsroomTranscript } from '../../../shared/newsroom-search';
import { newsroomAddressText } from '../../core/newsroom/newsroom-address';
import { NewsroomConnection } from '../../core/newsroom/newsroom-connection';
import { addDeskMember, newsroomIdentity, removeDeskMember } from '../../core/newsroom/newsroom-desks';
import {
  checkNewsroomSchema,
  knownNewsroomSchemaVersion,
  migrateNewsroom,
} from '../../core/newsroom/newsroom-migrations';
import { openNewsroomTranscript, searchNewsroom } from '../../core/newsroom/newsroom-search';
import {
  keepNewsroomTranscript,
  keptNewsroomAudioDir,
  type KeptCopy,
} from '../../core/newsroom/newsroom-keep';
import { libraryRecordings } from '../../core/export/library-story-export';

const actions = [
  'migrate',
  'status',
  'add-member',
  'remove-member',
  'publish',
  'unpublish',
  'outbox',
  'search',
  'open',
  'keep',
] as const;
type Action = (typeof actions)[number];

/**
 * `newsroom migrate` (an administrator, as the database's owner) brings the newsroom's server
 * schema up to this Verbatim's; `newsroom status` says whether the newsroom answers, its
 * schema version, and who you are there; `add-member` and `remove-member` (an administrator)
 * put a user on a desk or take them off it. The newsroom is named by VERBATIM_NEWSROOM_URL and
 * VERBATIM_NEWSROOM_PASSWORD; the password is never printed. `search` and `open` read the
 * archive as that reporter: row-level security decides what they find.
 */
export const newsroomCommand = defineCommand({
  name: 'newsroom',
  usage: [
    'migrate [--json]',
    'status [--json]',
    'add-member <user> --desk NAME [--editor] [--json]',
    'remove-member <user> --desk NAME [--json]',
    'publish <id>... [--desk NAME] [--confidential] [--with-audio] [--json]',
    'unpublish <id> [--json]',
    'outbox [--send] [--json]',
    'search <query> [--desk NAME] [--reporter USER] [--speaker S] [--tag T] [--from DATE] [--to DATE] [--json]',
    'open <reporter>/<transcript-id> [--json]',
    'keep <reporter>/<transcript-id> [--json]',
  ],
  summary:
    'Works with the newsroom archive (VERBATIM_NEWSROOM_URL): publish and unpublish queue transcripts in the library and send them, outbox lists (and with --send sends) what waits, search finds words in what your desks published ("a phrase", OR, -word; the last word also as a prefix) open shows one of those transcripts whole and keep saves it in your library as a read-only copy (with its recording when published with it); migrate brings its schema up to date and add-member and remove-member put a user on a desk or take them off it (for its administrator), status says whether it answers and who you are there.',
  options: {
    desk: {
      type: 'string',
      valueName: 'NAME',
      description:
        'the desk to add the user to or remove them from, to publish to (publish: your only desk unless given), or to search in',
    },
    reporter: { type: 'string', valueName: 'USER', description: 'search only what this reporter published' },
    speaker: {
      type: 'string',
      valueName: 'S',
      description: "search only this speaker's sentences (their label or name)",
    },
    tag: { type: 'string', valueName: 'T', description: 'search only transcripts with this tag' },
    from: {
      type: 'string',
      valueName: 'DATE',
      description: 'search only recordings made on or after this day (YYYY-MM-DD)',
    },
    to: {
      type: 'string',
      valueName: 'DATE',
      description: 'search only recordings made on or before this day (YYYY-MM-DD)',
    },
    confidential: {
      type: 'boolean',
      description: "publish: only you and the desk's editors see the transcript",
    },
    'with-audio': {
      type: 'boolean',
      description: 'publish: the recording too (refused for now: the audio is not published yet)',
    },
    send: { type: 'boolean', description: 'outbox: sends what waits before listing what is left' },
    editor: { type: 'boolean', description: "makes the user the desk's editor (a reporter unless given)" },
    json: { type: 'boolean', description: 'prints the result as JSON' },
  },
  takesWords: true,
  upgradesLibraryFirst: false,
  async run({ values, positionals }, { io, openLibrary }) {
    const [word, ...rest] = positionals;
    const action = actions.find((each) => each === word);
    if (action === 'search' || action === 'open' || action === 'keep') return await readArchive(action, rest);
    for (const option of ['reporter', 'speaker', 'tag', 'from', 'to'] as const)
      if (values[option] !== undefined) throw new UsageError(`--${option} is for newsroom search`);
    if (action === 'publish' || action === 'unpublish' || action === 'outbox')
      return publishing(action, rest);
    if (values.confidential || values['with-audio'])
      throw new UsageError('--confidential and --with-audio are for newsroom publish');
    if (values.send) throw new UsageError('--send is for newsroom outbox');
    const takesUser = action === 'add-member' || action === 'remove-member';
    if (action === undefined || rest.length !== (takesUser ? 1 : 0))
      throw new UsageError(
        action === undefined && word === undefined
          ? `newsroom needs a command: ${actions.join(', ')}`
          : takesUser
            ? `newsroom ${action} needs one user: newsroom ${action} <user> --desk NAME`
            : `unknown newsroom command "${positionals.join(' ')}"`,
      );
    if (takesUser && values.desk === undefined) throw new UsageError(`newsroom ${action} needs --desk NAME`);
    if (!takesUser && values.desk !== undefined)
      throw new UsageError(`--desk is for add-member, remove-member, publish and search`);
    if (action !== 'add-member' && values.editor) throw new UsageError('--editor is for add-member');
    const access = newsroomAccessOf(io.env);
    const where = newsroomAddressText(access.address);
    const newsroom = new NewsroomConnection(access.address, access.password);
    try {
      if (action === 'migrate') {
        const outcome = await newsroom.withClient((client) => migrateNewsroom(client));
        printResult(io, values.json, { address: where, ...outcome }, () =>
          outcome.applied.length === 0
            ? `The newsroom at ${where} is up to date: its schema is at version ${outcome.version}.`
            : `Migrated the newsroom at ${where} to schema version ${outcome.version} (applied ${outcome.applied.join(', ')}).`,
        );
        return 0;
      }
      if (takesUser) return await changeMembers(action, { user: rest[0]!, desk: values.desk! });
      const status = await newsroom.withClient(async (client) => {
        const schemaVersion = await checkNewsroomSchema(client);
        return { schemaVersion, ...(await newsroomIdentity(client)) };
      });
      printResult(
        io,
        values.json,
        { address: where, reachable: true, knownSchemaVersion: knownNewsroomSchemaVersion, ...status },
        () => {
          const desks =
            status.desks.length === 0
              ? "on no desk yet: ask your newsroom's administrator to add you to one."
              : `${status.desks.map(({ desk, role }) => `${role} on ${desk}`).join(', ')}.`;
          return `The newsroom at ${where} answers; its schema is at version ${status.schemaVersion}.\nYou are ${status.user}, ${desks}`;
        },
      );
      return 0;
    } finally {
      await newsroom.close();
    }

    async function publishing(
      action: Extract<Action, 'publish' | 'unpublish' | 'outbox'>,
      ids: string[],
    ): Promise<number> {
      if (action === 'publish' && ids.length === 0)
        throw new UsageError('newsroom publish needs one transcript id or more: newsroom publish <id>...');
      if (action === 'unpublish' && ids.length !== 1)
        throw new UsageError('newsroom unpublish needs one transcript id: newsroom unpublish <id>');
      if (action === 'outbox' && ids.length > 0)
        throw new UsageError('newsroom outbox takes no transcript id');
      if (action !== 'publish' && (values.desk !== undefined || values.confidential || values['with-audio']))
        throw new UsageError('--desk, --confidential and --with-audio are for newsroom publish');
      if (action !== 'outbox' && values.send) throw new UsageError('--send is for newsroom outbox');
      if (values.editor) throw new UsageError('--editor is for add-member');
      const access = newsroomAccessOf(io.env);
      const session = openLibrary({ showProgress: false });
      const run = {
        io,
        library: session.core.library,
        access,
        logger: session.logger.child('newsroom'),
        json: values.json,
        audio: {
          recordingOf: (transcriptId: string, audio: TextChoice) =>
            session.core.recordingOf(transcriptId, audio),
          findRecording: libraryRecordings(session.core.library, session.core.redactions),
        },
        audioChunkBytes: newsroomAudioChunkBytesOf(io.env),
      };
      if (action === 'publish')
        return publishCommand(run, ids, {
          desk: values.desk,
          confidential: values.confidential,
          withAudio: values['with-audio'],
        });
      if (action === 'unpublish') return unpublishCommand(run, ids[0]!);
      return outboxCommand(run, values.send, async (id) => (await session.core.library.get(id))?.title);
    }

    async function readArchive(action: 'search' | 'open' | 'keep', words: string[]): Promise<number> {
      if (values.editor) throw new UsageError('--editor is for add-member');
      if (values.confidential || values['with-audio'])
        throw new UsageError('--confidential and --with-audio are for newsroom publish');
      if (values.send) throw new UsageError('--send is for newsroom outbox');
      if (action === 'open' || action === 'keep') {
        for (const option of ['desk', 'reporter', 'speaker', 'tag', 'from', 'to'] as const)
          if (values[option] !== undefined) throw new UsageError(`--${option} is for newsroom search`);
        const ref = /^([^/]+)\/(.+)$/.exec(words.join(' '));
        if (words.length !== 1 || !ref)
          throw new UsageError(
            `newsroom ${action} needs one transcript: newsroom ${action} <reporter>/<transcript-id>`,
          );
        const access = newsroomAccessOf(io.env);
        const newsroom = new NewsroomConnection(access.address, access.password);
        try {
          if (action === 'keep') {
            const session = openLibrary({ showProgress: false });
            const kept = await keepNewsroomTranscript(
              newsroom,
              session.core.library,
              { reporter: ref[1]!, transcriptId: ref[2]! },
              { audioDir: keptNewsroomAudioDir(dataFolderOf(io.env)) },
            );
            printResult(
              io,
              values.json,
              {
                id: kept.id,
                created: kept.created,
                updated: kept.outcome === 'updated',
                revision: kept.revision,
                hasAudio: kept.hasAudio,
              },
              () => keptLine(`${ref[1]}/${ref[2]}`, kept),
            );
            return 0;
          }
          const transcript = await openNewsroomTranscript(newsroom, ref[1]!, ref[2]!);
          printResult(io, values.json, transcript, () => transcriptLines(transcript));
        } finally {
          await newsroom.close();
        }
        return 0;
      }
      const text = words.join(' ');
      if (!text.trim()) throw new UsageError('newsroom search needs words to look for');
      const from = values.from === undefined ? undefined : dayStart(values.from, '--from');
      const to = values.to === undefined ? undefined : nextDayStart(values.to, '--to');
      const access = newsroomAccessOf(io.env);
      const newsroom = new NewsroomConnection(access.address, access.password);
      try {
        const page = await searchNewsroom(newsroom, {
          text,
          desk: values.desk,
          reporter: values.reporter,
          speaker: values.speaker,
          tag: values.tag,
          from,
          to,
        });
        printResult(io, values.json, page, () => hitLines(page));
      } finally {
        await newsroom.close();
      }
      return 0;
    }

    async function changeMembers(
      action: Extract<Action, 'add-member' | 'remove-member'>,
      member: { user: string; desk: string },
    ): Promise<number> {
      try {
        if (action === 'add-member') {
          const role = values.editor ? 'editor' : 'reporter';
          await newsroom.withClient((client) => addDeskMember(client, { ...member, role }));
          printResult(io, values.json, { address: where, ...member, role }, () =>
            role === 'editor'
              ? `${member.user} is now the editor of the desk ${member.desk}.`
              : `${member.user} is now a reporter on the desk ${member.desk}.`,
          );
          return 0;
        }
        const removed = await newsroom.withClient((client) => removeDeskMember(client, member));
        printResult(io, values.json, { address: where, ...member, removed }, () =>
          removed
            ? `${member.user} is no longer on the desk ${member.desk}.`
            : `${member.user} was not on the desk ${member.desk}: nothing changed.`,
        );
        return 0;
      } catch (error) {
        // PostgreSQL refuses anyone but the owner of the database a change to desks and roles.
        if (
          error instanceof VerbatimError &&
          (error.details as { code?: string } | undefined)?.code === '42501'
        )
          throw new VerbatimError(
            'forbidden',
            `Only the newsroom's administrator can put users on desks or take them off, and ${access.address.user} is not: ask them to run it.`,
            error.details,
          );
        throw error;
      }
    }
  },
});

/** A day typed as YYYY-MM-DD, as the start of that day on this computer's clock (ms since the epoch). */
function dayStart(typed: string, option: string): number {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(typed.trim());
  const date = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : undefined;
  if (!day || !date || date.getMonth() !== Number(day[2]) - 1 || date.getDate() !== Number(day[3]))
    throw new UsageError(`${option} takes a day as YYYY-MM-DD, such as 2025-04-14`);
  return date.getTime();
}

/** The start of the day after, so the day typed is included whole. */
function nextDayStart(typed: string, option: string): number {
  const start = new Date(dayStart(typed, option));
  return new Date(start.getFullYear(), start.getMonth(), start.getDate() + 1).getTime();
}

function localDay(ms: number): string {
  const date = new Date(ms);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

function marked(text: string, matches: readonly { start: number; end: number }[]): string {
  let shown = '';
  let at = 0;
  for (const match of matches) {
    shown += `${text.slice(at, match.start)}**${text.slice(match.start, match.end)}**`;
    at = match.end;
  }
  return shown + text.slice(at);
}

function hitLines(page: NewsroomSearchPage): string {
  if (page.hits.length === 0) return 'Nothing found in the newsroom.';
  const lines = page.hits.map(
    (hit) =>
      `${hit.reporter}/${hit.transcriptId} (${hit.desk}, ${localDay(hit.recordedAt)}) ${hit.title} [${timestamp(hit.sentence.startMs)}] ${speakerPrefix(hit.sentence.speakerName ?? hit.sentence.speaker)}${marked(hit.sentence.text, hit.matches)}`,
  );
  const found = `${page.total}${page.totalCapped ? '+' : ''} sentences`;
  if (page.hits.length < page.total || page.totalCapped)
    lines.push(
      `Showing ${page.hits.length} of ${found} found: narrow the search with more words, --desk, --reporter, --from or --to.`,
    );
  return lines.join('\n');
}

function keptLine(ref: string, kept: KeptCopy): string {
  const recording = kept.hasAudio
    ? 'with its recording'
    : 'without a recording (it was published without one)';
  if (kept.outcome === 'unchanged')
    return `Your library already has revision ${kept.revision} of ${ref}, "${kept.title}" (${kept.id}): nothing changed.`;
  if (kept.outcome === 'updated')
    return `Updated your copy of ${ref}, "${kept.title}" (${kept.id}), to revision ${kept.revision}, ${recording}; your highlights kept their places.`;
  return `Kept ${ref}, "${kept.title}", in your library as ${kept.id} (revision ${kept.revision}, ${recording}): a read-only copy to play, highlight, quote and add to your stories.`;
}

function transcriptLines(transcript: NewsroomTranscript): string {
  const names = new Map(transcript.speakers.map((speaker) => [speaker.label, speaker.name ?? speaker.label]));
  const lines = [
    transcript.title,
    `Recorded ${localDay(transcript.recordedAt)} by ${transcript.reporter}, published to ${transcript.desk}${transcript.confidential ? ' (confidential)' : ''}, revision ${transcript.revision}.`,
  ];
  if (transcript.tags.length > 0) lines.push(`Tags: ${transcript.tags.join(', ')}.`);
  lines.push('');
  for (const sentence of transcript.sentences)
    lines.push(
      `[${timestamp(sentence.startMs)}] ${speakerPrefix(sentence.speaker === null ? null : (names.get(sentence.speaker) ?? sentence.speaker))}${sentence.text}`,
    );
  if (transcript.highlights.length > 0) {
    lines.push('', 'Highlights:');
    for (const highlight of transcript.highlights)
      lines.push(
        `[${timestamp(highlight.startMs)}] ${highlight.label}: ${highlight.text}${highlight.note ? ` (${highlight.note})` : ''}`,
      );
  }
  return lines.join('\n');
}
