import pg from 'pg';
import type { Segment } from '../../../shared/library';
import { NewsroomConnection } from './newsroom-connection';
import { addDeskMember, createDesk, createNewsroomLogin, type DeskRole } from './newsroom-desks';
import { migrateNewsroom } from './newsroom-migrations';
import type { NewsroomServer } from './newsroom-server.test-kit';
import type { Publication } from './publication';

/** The sample newsroom of the archive's tests: two desks, their reporters, an editor, an outsider. */
export const sampleMembers: readonly { user: string; desk: string | null; role: DeskRole }[] = [
  { user: 'ana', desk: 'City', role: 'reporter' },
  { user: 'ben', desk: 'City', role: 'reporter' },
  { user: 'cleo', desk: 'City', role: 'editor' },
  { user: 'dev', desk: 'Politics', role: 'reporter' },
  { user: 'olga', desk: null, role: 'reporter' },
];

export function passwordOf(user: string): string {
  return `pw-${user}-4c1e9b`;
}

/** Migrates a newsroom as its administrator and makes the sample desks, logins and memberships. */
export async function createSampleNewsroom(client: pg.ClientBase): Promise<void> {
  await migrateNewsroom(client);
  for (const desk of ['City', 'Politics']) await createDesk(client, desk);
  for (const member of sampleMembers) {
    await createNewsroomLogin(client, member.user, passwordOf(member.user));
    if (member.desk) await addDeskMember(client, { desk: member.desk, user: member.user, role: member.role });
  }
}

/** The sample newsroom on the test file's server. */
export async function setUpSampleNewsroom(server: NewsroomServer): Promise<void> {
  const client = await server.pool.connect();
  try {
    await createSampleNewsroom(client);
  } finally {
    client.release();
  }
}

/** The app's own connection to the test server, logged in as `user`. */
export function connectionAs(server: NewsroomServer, user: string): NewsroomConnection {
  return new NewsroomConnection({ ...server.admin, user }, passwordOf(user));
}

/** A plain `pg` client logged in as `user`, for hand-written SQL. */
export async function sqlAs(server: NewsroomServer, user: string): Promise<pg.Client> {
  const client = new pg.Client({ ...server.admin, user, password: passwordOf(user) });
  await client.connect();
  return client;
}

export function sampleSentences(count: number, words = 'the harbour master said'): Segment[] {
  return Array.from({ length: count }, (_, position) => {
    const text = `${words} ${position}`;
    return {
      position,
      startMs: position * 3000,
      endMs: position * 3000 + 2500,
      speaker: position % 2 === 0 ? 'A' : 'B',
      confidence: 0.9,
      text,
      words: text.split(' ').map((word, index) => ({
        text: word,
        start: position * 3000 + index * 400,
        end: position * 3000 + index * 400 + 350,
        confidence: 0.9,
      })),
    };
  });
}

/** A publication of `transcriptId` at `revision`, whose title and sentences say which revision it is. */
export function samplePublication(
  transcriptId: string,
  revision: number,
  overrides: Partial<Publication> = {},
): Publication {
  return {
    transcriptId,
    revision,
    desk: 'City',
    confidential: false,
    title: `Harbour interview, revision ${revision}`,
    recordedAt: Date.UTC(2025, 3, 14, 9, 30),
    languageCode: 'en',
    durationMs: 60_000,
    redacted: false,
    speakers: [
      { label: 'A', name: 'Harbour master' },
      { label: 'B', name: null },
    ],
    tags: ['harbour', `rev-${revision}`],
    sentences: sampleSentences(revision + 1, `revision ${revision} of the harbour`),
    highlights: [
      {
        startMs: 0,
        endMs: 2500,
        label: 'quote',
        note: `from revision ${revision}`,
        text: 'revision',
        speaker: 'A',
      },
    ],
    checkedParagraphs: [{ paragraph: 0, checkedAt: Date.UTC(2025, 3, 15) }],
    audio: null,
    ...overrides,
  };
}

/** What the archive holds of one transcript, read behind the app as the administrator. */
export async function archivedState(
  server: NewsroomServer,
  reporter: string,
  transcriptId: string,
): Promise<{ revision: number; title: string; sentences: number; highlights: string[] } | null> {
  const found = await server.pool.query<{ revision: number; title: string }>(
    'SELECT revision, title FROM verbatim.published_transcripts WHERE reporter = $1 AND transcript_id = $2',
    [reporter, transcriptId],
  );
  const sentences = await server.pool.query<{ count: string }>(
    'SELECT count(*) AS count FROM verbatim.published_sentences WHERE reporter = $1 AND transcript_id = $2',
    [reporter, transcriptId],
  );
  const highlights = await server.pool.query<{ note: string }>(
    'SELECT note FROM verbatim.published_highlights WHERE reporter = $1 AND transcript_id = $2 ORDER BY ordinal',
    [reporter, transcriptId],
  );
  const row = found.rows[0];
  if (!row) {
    // A withdrawn transcript leaves nothing behind.
    if (Number(sentences.rows[0]?.count) !== 0 || highlights.rows.length !== 0)
      throw new Error(`${transcriptId} left sentences or highlights behind`);
    return null;
  }
  return {
    revision: row.revision,
    title: row.title,
    sentences: Number(sentences.rows[0]?.count),
    highlights: highlights.rows.map((highlight) => highlight.note),
  };
}
