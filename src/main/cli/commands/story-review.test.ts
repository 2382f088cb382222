import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SharedStory } from '../../../shared/story-review';
import { writeFerryStory } from '../../core/collaboration/story-review.test-kit';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import { passwordOf, setUpSampleNewsroom, sqlAs } from '../../core/newsroom/newsroom-archive.test-kit';
import { useNewsroomServer } from '../../core/newsroom/newsroom-server.test-kit';
import { runCliProcess, startTypeScriptProcess, type CliRun } from '../cli-process.test-kit';

/**
 * Stories an editor reviews from the command line (issue #36, points 5 and 6): three real child
 * processes with a data folder each, as ana (City reporter), cleo (City's editor) and dev
 * (Politics reporter), against a real PostgreSQL.
 */
const server = useNewsroomServer();
const root = mkdtempSync(join(tmpdir(), 'verbatim-cli-review-'));
const folderOf = (user: string) => join(root, user);
const approveThenHang = resolve(
  import.meta.dirname,
  '../../core/collaboration/approve-then-hang-process.test-kit.ts',
);

function as(user: string, args: string[]): Promise<CliRun> {
  return runCliProcess(args, {
    VERBATIM_DATA_DIR: folderOf(user),
    VERBATIM_NEWSROOM_URL: server().urlFor(user),
    VERBATIM_NEWSROOM_PASSWORD: passwordOf(user),
  });
}

async function commentsAs(user: string, story: string): Promise<SharedStory> {
  const run = await as(user, ['story', 'comments', story, '--json']);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as SharedStory;
}

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  mkdirSync(folderOf('ana'));
  const db = openDatabase(join(folderOf('ana'), 'library.sqlite'));
  try {
    await writeFerryStory(new Library(db));
  } finally {
    db.close();
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('story share, comment, comments, approve, resolve and reviews', () => {
  it('ana shares, cleo comments and approves, ana lists and resolves, dev sees nothing even with hand-written SQL', async () => {
    expect(await as('ana', ['story', 'share', 'Ferry contract', '--desk', 'City'])).toEqual({
      code: 0,
      stderr: '',
      stdout: 'Shared “Ferry contract” (ana/1) with the editor of City, revision 1: sent.\n',
    });
    const reviews = await as('cleo', ['story', 'reviews']);
    expect(reviews).toMatchObject({ code: 0, stderr: '' });
    expect(reviews.stdout).toBe(
      'ana/1      “Ferry contract”  by ana, City, revision 1, 3 quotes, 0 open comments\n',
    );
    expect(
      await as('cleo', [
        'story',
        'comment',
        'ana/1',
        '--quote',
        '2',
        '--text',
        'Check this against the tape.',
      ]),
    ).toEqual({
      code: 0,
      stderr: '',
      stdout: 'Comment 1 on quote 2 “The ferry line 2 sails” of “Ferry contract” saved: sent.\n',
    });
    expect(
      await as('cleo', [
        'story',
        'comment',
        'ana/1',
        '--passage',
        'bid was rushed',
        '--text',
        'Who else said this?',
        '--change',
      ]),
    ).toMatchObject({
      code: 0,
      stdout: 'Request for a change 2 on the passage “bid was rushed” of “Ferry contract” saved: sent.\n',
    });
    expect(await as('cleo', ['story', 'approve', 'ana/1', '--quote', '1'])).toEqual({
      code: 0,
      stderr: '',
      stdout: 'Approved quote 1 of “Ferry contract”: sent.\n',
    });

    const listed = await as('ana', ['story', 'comments', '1']);
    expect(listed).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'Comments on “Ferry contract” (ana/1), revision 1:',
        '  1. cleo on quote 2 “The ferry line 2 sails”: Check this against the tape.  (open)',
        '  2. cleo asks for a change to the passage “bid was rushed”: Who else said this?  (open)',
        '',
      ].join('\n'),
    });
    expect(
      await as('ana', ['story', 'comment', '1', '--reply', '1', '--text', 'Checked: at 00:00:06.']),
    ).toMatchObject({
      code: 0,
      stdout: 'Reply to comment 1 (comment 3) on “Ferry contract” saved: sent.\n',
    });
    expect(await as('ana', ['story', 'resolve', '1', '--comment', '1'])).toEqual({
      code: 0,
      stderr: '',
      stdout: 'Resolved comment 1 (cleo: “Check this against the tape.”) on “Ferry contract”: sent.\n',
    });
    const seen = await commentsAs('cleo', 'ana/1');
    expect(seen.comments.map((comment) => [comment.author, comment.resolvedBy])).toEqual([
      ['cleo', 'ana'],
      ['cleo', null],
      ['ana', null],
    ]);
    expect(seen.approvals).toEqual([
      expect.objectContaining({ by: 'cleo', withdrawn: false, waiting: false }),
    ]);

    const hidden = await as('dev', ['story', 'comments', 'ana/1']);
    expect(hidden).toMatchObject({ code: 2, stdout: '' });
    expect(hidden.stderr).toBe(
      'verbatim: There is no story ana/1 shared with you: check the reporter and the id (story reviews lists them).\n',
    );
    expect(await as('dev', ['story', 'reviews'])).toMatchObject({
      code: 0,
      stdout: 'No shared stories: share one of yours with story share <story> --desk NAME.\n',
    });
    const sql = await sqlAs(server(), 'dev');
    try {
      const rows = await sql.query(
        `SELECT (SELECT count(*) FROM verbatim.shared_stories) + (SELECT count(*) FROM verbatim.story_comments)
           + (SELECT count(*) FROM verbatim.story_approvals) + (SELECT count(*) FROM verbatim.shared_story_clips) AS n`,
      );
      expect(rows.rows).toEqual([{ n: '0' }]);
    } finally {
      await sql.end();
    }
  });

  it('refuses bad input in sentences: no such quote, no anchor, approving one’s own story, a story not shared', async () => {
    const noQuote = await as('cleo', ['story', 'approve', 'ana/1', '--quote', '7']);
    expect(noQuote).toMatchObject({ code: 2, stdout: '' });
    expect(noQuote.stderr).toBe(
      'verbatim: “Ferry contract” has no quote 7: its quotes are numbered 1 to 3.\n',
    );
    const noAnchor = await as('cleo', ['story', 'comment', 'ana/1', '--text', 'Hm.']);
    expect(noAnchor.code).toBe(2);
    expect(noAnchor.stderr).toContain('story comment needs one of --quote N, --passage WORDS or --reply N');
    const own = await as('ana', ['story', 'approve', '1', '--quote', '1']);
    expect(own.code).not.toBe(0);
    expect(own.stderr).toBe(
      "verbatim: You approve the quotes of stories shared with you, not your own: City's editor approves these.\n",
    );
    const notShared = await as('ana', ['story', 'comments', 'ana/9']);
    expect(notShared.code).not.toBe(0);
    expect(notShared.stderr).toContain(
      "The story ana/9 is not shared: share it with your desk's editor first",
    );
  });

  it('a comment made while the newsroom is unreachable says it waits, and arrives once after two syncs', async () => {
    await server().stop();
    let offline: CliRun;
    try {
      offline = await as('cleo', ['story', 'comment', 'ana/1', '--quote', '3', '--text', 'Made offline.']);
    } finally {
      await server().restart();
    }
    expect(offline).toMatchObject({ code: 0, stderr: '' });
    expect(offline.stdout).toMatch(
      /^Comment 4 on quote 3 “The ferry line 4 sails” of “Ferry contract” saved: waits: .+; it is sent by the next command or the app\.\n$/,
    );
    expect(await as('cleo', ['story', 'reviews'])).toMatchObject({ code: 0, stderr: '' });
    expect(await as('cleo', ['story', 'reviews'])).toMatchObject({ code: 0, stderr: '' });
    const seen = await commentsAs('ana', '1');
    expect(seen.comments.filter((comment) => comment.body === 'Made offline.')).toHaveLength(1);
    const stored = await server().pool.query(
      `SELECT id FROM verbatim.story_comments WHERE body = 'Made offline.'`,
    );
    expect(stored.rowCount).toBe(1);
  });

  it('an approval saved by a process SIGKILLed before it could send is sent by the next run', async () => {
    const run = startTypeScriptProcess(
      approveThenHang,
      [join(folderOf('cleo'), 'library.sqlite'), server().urlFor('cleo'), 'ana/1', '3'],
      {},
    );
    await new Promise<void>((saved, failed) => {
      run.child.stdout.once('data', () => saved());
      run.child.once('close', () => failed(new Error('the approving process ended before it said "saved"')));
    });
    run.child.kill('SIGKILL');
    expect((await run.finished).code).toBeNull();
    expect(
      (
        await server().pool.query(
          `SELECT 1 FROM verbatim.story_approvals WHERE quote_key = (SELECT items->4->>'key' FROM verbatim.shared_stories)`,
        )
      ).rowCount,
    ).toBe(0);

    expect(await as('cleo', ['story', 'reviews'])).toMatchObject({ code: 0, stderr: '' });
    const seen = await commentsAs('ana', '1');
    const third = seen.items.filter((item) => item.kind === 'quote')[2]!;
    expect(seen.approvals.find((approval) => approval.quoteKey === third.key)).toMatchObject({
      by: 'cleo',
      withdrawn: false,
    });
  });
});
