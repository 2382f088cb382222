import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { setUpSampleNewsroom, sqlAs } from './newsroom-archive.test-kit';
import { useNewsroomServer } from './newsroom-server.test-kit';

/**
 * Who sees a shared story and its review (issue #36, point 2), enforced by PostgreSQL itself and
 * checked with hand-written SQL as each sample user: ana (City reporter) shares a story with
 * City's editor cleo. dev (Politics) and olga (no desk) see nothing and cannot comment on it;
 * ben, a City reporter but not its editor, does not see it either: a story is shared with the
 * desk's editor, for review before publication, not with the whole desk.
 */
const server = useNewsroomServer();
const clients = new Map<string, pg.Client>();
const as = (user: string): pg.Client => clients.get(user)!;
const comment = (
  id: string,
  author = '',
) => `INSERT INTO verbatim.story_comments (id, reporter, story_id, anchor, kind, body${author ? ', author' : ''})
  VALUES ('${id}', 'ana', '3', '{"kind":"quote","quoteKey":"7"}', 'comment', 'Check this'${author ? `, '${author}'` : ''})`;

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  for (const user of ['ana', 'ben', 'cleo', 'dev', 'olga']) clients.set(user, await sqlAs(server(), user));
  await as('ana').query(
    `INSERT INTO verbatim.shared_stories (story_id, desk, title, revision, items)
     VALUES ('3', 'City', 'Ferry contract', 1, '[{"kind":"quote","key":"7"}]')`,
  );
  await as('ana').query(
    `INSERT INTO verbatim.shared_story_clips (story_id, quote_key, span, mime_type, bytes)
     VALUES ('3', '7', 'ferry:0-2000', 'audio/wav', '\\x52494646')`,
  );
  await as('cleo').query(comment('00000000-0000-4000-8000-000000000001'));
  await as('cleo').query(
    `INSERT INTO verbatim.story_approvals (reporter, story_id, quote_key, approved_at) VALUES ('ana', '3', '7', now())`,
  );
});
afterAll(async () => {
  for (const client of clients.values()) await client.end();
});

const counts = async (user: string) => {
  const found = await as(user).query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM verbatim.shared_stories) AS stories,
            (SELECT count(*) FROM verbatim.shared_story_clips) AS clips,
            (SELECT count(*) FROM verbatim.story_comments) AS comments,
            (SELECT count(*) FROM verbatim.story_approvals) AS approvals`,
  );
  return found.rows[0];
};

describe('row-level security on shared stories', () => {
  it('ana and cleo see the story, its clip, comment and approval; ben, dev and olga see none of them', async () => {
    const everything = { stories: '1', clips: '1', comments: '1', approvals: '1' };
    const nothing = { stories: '0', clips: '0', comments: '0', approvals: '0' };
    expect(await counts('ana')).toEqual(everything);
    expect(await counts('cleo')).toEqual(everything);
    for (const user of ['ben', 'dev', 'olga']) expect(await counts(user)).toEqual(nothing);
  });

  it('dev, olga and ben cannot comment on ana’s story, and nobody comments as someone else', async () => {
    for (const [n, user] of ['dev', 'olga', 'ben'].entries())
      await expect(as(user).query(comment(`00000000-0000-4000-8000-00000000001${n}`))).rejects.toThrow(
        /row-level security/,
      );
    await expect(as('cleo').query(comment('00000000-0000-4000-8000-000000000020', 'ana'))).rejects.toThrow(
      /row-level security/,
    );
  });

  it('only the desk’s editor approves, only ana shares into her desks, and dev cannot change or resolve what he cannot see', async () => {
    await expect(
      as('ana').query(
        `INSERT INTO verbatim.story_approvals (reporter, story_id, quote_key, approved_at) VALUES ('ana', '3', '8', now())`,
      ),
    ).rejects.toThrow(/row-level security/);
    await expect(
      as('dev').query(
        `INSERT INTO verbatim.story_approvals (reporter, story_id, quote_key, approved_at) VALUES ('ana', '3', '8', now())`,
      ),
    ).rejects.toThrow(/row-level security/);
    await expect(
      as('ana').query(
        `INSERT INTO verbatim.shared_stories (story_id, desk, title, revision, items) VALUES ('4', 'Politics', 'x', 1, '[]')`,
      ),
    ).rejects.toThrow(/row-level security/);
    await expect(
      as('dev').query(
        `INSERT INTO verbatim.shared_stories (reporter, story_id, desk, title, revision, items) VALUES ('ana', '5', 'City', 'x', 1, '[]')`,
      ),
    ).rejects.toThrow(/row-level security/);
    const changed = await as('dev').query(
      `UPDATE verbatim.shared_stories SET title = 'mine' WHERE reporter = 'ana'`,
    );
    expect(changed.rowCount).toBe(0);
    const resolved = await as('dev').query(
      `UPDATE verbatim.story_comments SET resolved_by = 'dev', resolved_at = now()`,
    );
    expect(resolved.rowCount).toBe(0);
    await expect(as('cleo').query(`UPDATE verbatim.story_comments SET body = 'changed'`)).rejects.toThrow(
      /permission denied/,
    );
  });

  it('ana resolves cleo’s comment on her story, as herself only', async () => {
    await expect(
      as('ana').query(`UPDATE verbatim.story_comments SET resolved_by = 'cleo', resolved_at = now()`),
    ).rejects.toThrow(/row-level security/);
    const resolved = await as('ana').query(
      `UPDATE verbatim.story_comments SET resolved_by = 'ana', resolved_at = now()`,
    );
    expect(resolved.rowCount).toBe(1);
  });
});
