import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SharedStory } from '../../../shared/story-review';
import { sqlAs, setUpSampleNewsroom } from '../newsroom/newsroom-archive.test-kit';
import { useNewsroomServer } from '../newsroom/newsroom-server.test-kit';
import { readSharedClip, sendComment } from '../newsroom/shared-stories';
import { connectionAs } from '../newsroom/newsroom-archive.test-kit';
import {
  approveLocally,
  commentLocally,
  commentNumbered,
  passageAnchorOf,
  quoteKeyOf,
  resolveLocally,
  shareStoryLocally,
} from './story-review-actions';
import { quoteKeys, reviewDeskOf, writeFerryStory, type ReviewDesk } from './story-review.test-kit';
import {
  completedTranscriptFromLines,
  misheardTimings,
  storeFinished,
} from '../library/completed-transcript.test-kit';

/**
 * Stories an editor reviews (issue #36, point 2) against a real PostgreSQL: ana (City reporter)
 * shares a story with City's editor cleo, who comments and approves; ben (City reporter) and dev
 * (Politics) see nothing. Each user has their own library and sync, as their own app would.
 */
const server = useNewsroomServer();
let ana: ReviewDesk;
let cleo: ReviewDesk;
let ben: ReviewDesk;
let storyId: number;
let key: string;
let clock = Date.UTC(2026, 10, 27, 9);
const now = () => (clock += 1000);

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  ana = reviewDeskOf(server(), 'ana');
  cleo = reviewDeskOf(server(), 'cleo');
  ben = reviewDeskOf(server(), 'ben');
  storyId = (await writeFerryStory(ana.library)).id;
  key = `ana/${storyId}`;
});
afterAll(async () => {
  for (const desk of [ana, cleo, ben]) await desk?.close();
});

const read = (desk: ReviewDesk): Promise<SharedStory | undefined> =>
  desk.library.reviews((store) => store.get(desk.reviewer.newsroom, desk.reviewer.me, key));

describe('a story shared with the desk editor', () => {
  it('reaches cleo with its quotes, text and each quote’s sound; ben, a reporter of the desk, does not see it', async () => {
    const share = await shareStoryLocally(ana.library, ana.reviewer, String(storyId), 'City');
    expect(share).toMatchObject({ key, desk: 'City', revisionAsked: 1, revisionSent: 0, error: null });
    await ana.sync.sync();
    await cleo.sync.sync();
    await ben.sync.sync();

    const seen = await read(cleo);
    expect(seen).toMatchObject({
      reporter: 'ana',
      desk: 'City',
      title: 'Ferry contract',
      revision: 1,
      mine: false,
      quotes: 3,
    });
    expect(seen!.items.map((item) => item.kind)).toEqual(['text', 'quote', 'quote', 'text', 'quote']);
    expect(seen!.items[1]).toMatchObject({
      kind: 'quote',
      text: 'The ferry line 0 sails',
      transcriptTitle: 'Ferry interview',
      checked: null,
    });
    expect((seen!.items[1] as { citation: string }).citation).toContain('“Ferry interview”');
    expect(await read(ana)).toMatchObject({ mine: true, revision: 1 });
    expect(await read(ben)).toBeUndefined();
    expect(cleo.notices).toEqual([
      expect.objectContaining({
        kind: 'story-shared',
        by: 'ana',
        key: `story-shared:${key}`,
        target: { kind: 'story', storyKey: key },
      }),
    ]);
    expect(ana.notices).toEqual([]);

    const clips = await server().pool.query<{ quote_key: string; bytes: Buffer }>(
      `SELECT quote_key, bytes FROM verbatim.shared_story_clips WHERE reporter = 'ana' ORDER BY quote_key`,
    );
    expect(clips.rows.map((row) => row.quote_key).sort()).toEqual(
      quoteKeys(await ana.library.story(storyId)).sort(),
    );
    for (const clip of clips.rows) expect(clip.bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    const asCleo = connectionAs(server(), 'cleo');
    const asBen = connectionAs(server(), 'ben');
    try {
      const ref = { reporter: 'ana', storyId, quoteKey: quoteKeyOf(seen!, 1) };
      const heard = await readSharedClip(asCleo, ref);
      expect(heard?.mimeType).toBe('audio/wav');
      expect(
        Buffer.compare(heard!.bytes, clips.rows.find((row) => row.quote_key === ref.quoteKey)!.bytes),
      ).toBe(0);
      expect(await readSharedClip(asBen, ref)).toBeUndefined();
    } finally {
      await asCleo.close();
      await asBen.close();
    }
  });

  it('cleo comments on a quote and a passage, asks for a change, approves; ana answers and resolves; each hears of the other only', async () => {
    const story = (await read(cleo))!;
    const check = await commentLocally(cleo.library, cleo.reviewer, {
      storyKey: key,
      anchor: { kind: 'quote', quoteKey: quoteKeyOf(story, 2) },
      body: 'Check this against the tape.',
      kind: 'comment',
      at: now(),
    });
    expect(check.waiting).toBe(true);
    await commentLocally(cleo.library, cleo.reviewer, {
      storyKey: key,
      anchor: passageAnchorOf(story, 'bid was rushed'),
      body: 'Who else said this?',
      kind: 'change-request',
      at: now(),
    });
    await approveLocally(cleo.library, cleo.reviewer, {
      storyKey: key,
      quoteKey: quoteKeyOf(story, 1),
      withdrawn: false,
      at: now(),
    });
    await cleo.sync.sync();
    expect((await read(cleo))!.comments.every((comment) => !comment.waiting)).toBe(true);

    await ana.sync.sync();
    const seen = (await read(ana))!;
    expect(seen.comments.map((comment) => [comment.author, comment.kind, comment.body])).toEqual([
      ['cleo', 'comment', 'Check this against the tape.'],
      ['cleo', 'change-request', 'Who else said this?'],
    ]);
    expect(seen.comments[1]!.anchor).toMatchObject({ kind: 'passage', words: 'bid was rushed' });
    expect(seen.approvals).toEqual([
      expect.objectContaining({
        quoteKey: quoteKeyOf(seen, 1),
        by: 'cleo',
        withdrawn: false,
        waiting: false,
      }),
    ]);
    expect(ana.notices.map((notice) => [notice.kind, notice.by, notice.target])).toEqual([
      ['comment', 'cleo', { kind: 'story', storyKey: key, quote: 2 }],
      ['change-request', 'cleo', { kind: 'story', storyKey: key }],
      ['approval', 'cleo', { kind: 'story', storyKey: key, quote: 1 }],
    ]);
    expect(ana.notices[0]!.text).toBe(
      'cleo commented on quote 2 of “Ferry contract”: “Check this against the tape.”',
    );

    // Read again: nothing new to tell.
    await ana.sync.sync();
    expect(ana.notices).toHaveLength(3);

    const first = commentNumbered(seen, 1);
    await commentLocally(ana.library, ana.reviewer, {
      storyKey: key,
      anchor: first.anchor,
      body: 'Checked: it is at 00:00:06.',
      kind: 'comment',
      replyTo: first.id,
      at: now(),
    });
    await resolveLocally(ana.library, ana.reviewer, { storyKey: key, commentId: first.id, at: now() });
    await ana.sync.sync();
    await cleo.sync.sync();
    const after = (await read(cleo))!;
    expect(after.comments[0]).toMatchObject({ resolvedBy: 'ana', waiting: false });
    expect(after.comments[2]).toMatchObject({ author: 'ana', replyTo: first.id, anchor: first.anchor });
    expect(cleo.notices.map((notice) => notice.kind)).toEqual(['story-shared', 'reply', 'resolved']);
    // The request for a change is still open; ana's reply is part of the resolved comment's thread.
    expect(after.openComments).toBe(1);
  });

  it('a story changed after sharing arrives as revision 2 with its comments kept; a removed quote leaves its comments about a removed quote', async () => {
    const local = await ana.library.story(storyId);
    const removed = local.items.filter((item) => item.kind === 'quote')[1]!;
    await ana.library.removeStoryItem(storyId, removed.id);
    await ana.sync.sync();
    await cleo.sync.sync();
    const seen = (await read(cleo))!;
    expect(seen).toMatchObject({ revision: 2, quotes: 2 });
    const about = seen.comments.find((comment) => comment.body === 'Check this against the tape.')!;
    expect(about.anchor).toEqual({ kind: 'quote', quoteKey: String(removed.id) });
    expect(seen.items.some((item) => item.key === String(removed.id))).toBe(false);
    const clips = await server().pool.query(
      `SELECT quote_key FROM verbatim.shared_story_clips WHERE reporter = 'ana' AND quote_key = $1`,
      [String(removed.id)],
    );
    expect(clips.rows).toEqual([]);
    // Nothing changed since: no revision 3.
    await ana.sync.sync();
    expect(
      (await server().pool.query(`SELECT revision FROM verbatim.shared_stories WHERE reporter = 'ana'`)).rows,
    ).toEqual([{ revision: 2 }]);
  });

  it('the cursor never skips a comment whose transaction began before a pull and committed after it', async () => {
    const late = await sqlAs(server(), 'cleo');
    try {
      await late.query('BEGIN');
      await late.query(
        `INSERT INTO verbatim.story_comments (id, reporter, story_id, anchor, kind, body)
         VALUES (gen_random_uuid(), 'ana', $1, '{"kind":"quote","quoteKey":"x"}', 'comment', 'Committed late.')`,
        [String(storyId)],
      );
      await ana.sync.sync();
      expect((await read(ana))!.comments.some((comment) => comment.body === 'Committed late.')).toBe(false);
      await late.query('COMMIT');
    } finally {
      await late.end();
    }
    await ana.sync.sync();
    expect((await read(ana))!.comments.filter((comment) => comment.body === 'Committed late.')).toHaveLength(
      1,
    );
  });

  it('a comment sent twice is stored once', async () => {
    const connection = connectionAs(server(), 'cleo');
    try {
      const comment = {
        id: '6f1f4bd8-4a39-4b0e-9f35-0c1c3f7c2a10',
        reporter: 'ana',
        storyId,
        anchor: { kind: 'quote' as const, quoteKey: quoteKeyOf((await read(cleo))!, 1) },
        kind: 'comment' as const,
        body: 'Sent twice.',
        replyTo: null,
      };
      const first = await sendComment(connection, comment);
      const second = await sendComment(connection, comment);
      expect(second).toEqual(first);
    } finally {
      await connection.close();
    }
    const stored = await server().pool.query(
      `SELECT id FROM verbatim.story_comments WHERE body = 'Sent twice.'`,
    );
    expect(stored.rowCount).toBe(1);
  });

  it('refuses in words: an approval by the reporter, a quote number past the end, a story not shared', async () => {
    const story = (await read(ana))!;
    await expect(
      approveLocally(ana.library, ana.reviewer, {
        storyKey: key,
        quoteKey: quoteKeyOf(story, 1),
        withdrawn: false,
        at: now(),
      }),
    ).rejects.toThrow(
      "You approve the quotes of stories shared with you, not your own: City's editor approves these.",
    );
    expect(() => quoteKeyOf(story, 9)).toThrow(
      '“Ferry contract” has no quote 9: its quotes are numbered 1 to 2.',
    );
    const other = await ana.library.createStory('Unshared');
    await expect(
      commentLocally(ana.library, ana.reviewer, {
        storyKey: `ana/${other.id}`,
        anchor: { kind: 'quote', quoteKey: '1' },
        body: 'x',
        kind: 'comment',
        at: now(),
      }),
    ).rejects.toThrow(
      `The story ana/${other.id} is not shared: share it with your desk's editor first (story share ${other.id} --desk NAME).`,
    );
    await expect(shareStoryLocally(ana.library, ana.reviewer, String(other.id), 'Politics')).rejects.toThrow(
      '“Unshared” is empty',
    );
  });

  it('a share to a desk the reporter is not on is refused by the newsroom, and said so', async () => {
    await ana.library.addTextToStory((await ana.library.findStory('Unshared')).id, 'A line.');
    await shareStoryLocally(ana.library, ana.reviewer, 'Unshared', 'Politics');
    const { refused } = await ana.sync.sync();
    expect(refused).toEqual([
      '“Unshared” was not shared: You are not on the desk Politics in this newsroom, so you cannot share a story with its editor: share it with one of your desks.',
    ]);
  });

  it('a quote checked against the audio reaches the editor as checked by its reporter, in its citation too (point 3)', async () => {
    // A pier interview in two paragraphs; ana quotes its first and stamps it: shared again as revision 3.
    await storeFinished(
      ana.library,
      'pier',
      'Pier interview',
      completedTranscriptFromLines(
        [
          ['A', 'The pier reopens in May.', 0],
          ['B', 'The council pays for it.', 3000],
        ],
        misheardTimings,
        {
          transcript: { id: 'remote-pier', language_code: 'en' },
          paragraphs: [
            { text: 'The pier reopens in May.', start: 0, end: 2500 },
            { text: 'The council pays for it.', start: 3000, end: 5500 },
          ],
        },
      ),
    );
    const highlight = await ana.library.createHighlight({ transcriptId: 'pier', startMs: 0, endMs: 2000 });
    await ana.library.addQuoteToStory(storyId, highlight.id);
    await ana.library.setParagraphChecked('pier', 0, true);
    await ana.sync.sync();
    await cleo.sync.sync();
    const seen = (await read(cleo))!;
    expect(seen.revision).toBe(3);
    const quotes = seen.items.filter((item) => item.kind === 'quote');
    const pier = quotes.find((item) => item.transcriptTitle === 'Pier interview')!;
    expect(pier).toMatchObject({ checked: { by: 'ana' } });
    expect(pier.citation).toMatch(/checked against the audio by ana on /);
    const ferry = quotes.find((item) => item.transcriptTitle === 'Ferry interview')!;
    expect(ferry).toMatchObject({ checked: null });
    expect(ferry.citation).toContain('not checked against the audio');
  });
});
