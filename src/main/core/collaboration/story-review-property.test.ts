import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SharedStory } from '../../../shared/story-review';
import { setUpSampleNewsroom } from '../newsroom/newsroom-archive.test-kit';
import { useNewsroomServer } from '../newsroom/newsroom-server.test-kit';
import { approveLocally, commentLocally, resolveLocally, shareStoryLocally } from './story-review-actions';
import { reviewDeskOf, writeFerryStory, type ReviewDesk } from './story-review.test-kit';

/**
 * Where offline work and the sync meet (issue #36, point 6): ana and cleo comment, reply, resolve
 * and approve offline in any order, sync in any order, and lose the record of what they sent (as a
 * process killed between the newsroom taking a change and the library noting it) so it is sent
 * again. After a last sync each, both copies equal the newsroom, and each comment is there once.
 */
const server = useNewsroomServer();
let ana: ReviewDesk;
let cleo: ReviewDesk;
let clock = Date.UTC(2026, 10, 27, 9);
const now = () => (clock += 1000);
let lines = 0;
let stories = 0;

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  ana = reviewDeskOf(server(), 'ana');
  cleo = reviewDeskOf(server(), 'cleo');
  await writeFerryStory(ana.library);
});
afterAll(async () => {
  await ana.close();
  await cleo.close();
});

type Who = 'ana' | 'cleo';
type Step =
  | { op: 'comment'; who: Who; quote: number }
  | { op: 'reply'; who: Who; pick: number }
  | { op: 'resolve'; who: Who; pick: number }
  | { op: 'approve'; quote: number; withdrawn: boolean }
  | { op: 'sync'; who: Who }
  | { op: 'lose-record'; who: Who; pick: number };

const who = fc.constantFrom<Who>('ana', 'cleo');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('comment' as const), who, quote: fc.nat(2) }),
  fc.record({ op: fc.constant('reply' as const), who, pick: fc.nat() }),
  fc.record({ op: fc.constant('resolve' as const), who, pick: fc.nat() }),
  fc.record({ op: fc.constant('approve' as const), quote: fc.nat(2), withdrawn: fc.boolean() }),
  fc.record({ op: fc.constant('sync' as const), who }),
  fc.record({ op: fc.constant('lose-record' as const), who, pick: fc.nat() }),
);

const desk = (user: Who) => (user === 'ana' ? ana : cleo);
const read = async (user: Who, key: string): Promise<SharedStory | undefined> =>
  desk(user).library.reviews((store) => store.get(desk(user).reviewer.newsroom, user, key));

async function run(key: string, steps: Step[]): Promise<void> {
  for (const each of steps) {
    if (each.op === 'sync') {
      await desk(each.who).sync.sync();
      continue;
    }
    if (each.op === 'approve') {
      const story = (await read('cleo', key))!;
      const quote = story.items.filter((item) => item.kind === 'quote')[each.quote]!;
      await approveLocally(cleo.library, cleo.reviewer, {
        storyKey: key,
        quoteKey: quote.key,
        withdrawn: each.withdrawn,
        at: now(),
      });
      continue;
    }
    const { library, reviewer, db } = desk(each.who);
    const story = (await read(each.who, key))!;
    const pick = 'pick' in each ? each.pick : 0;
    const picked = story.comments.length === 0 ? undefined : story.comments[pick % story.comments.length];
    if (each.op === 'comment') {
      const quote = story.items.filter((item) => item.kind === 'quote')[each.quote]!;
      await commentLocally(library, reviewer, {
        storyKey: key,
        anchor: { kind: 'quote', quoteKey: quote.key },
        body: `line ${++lines}`,
        kind: 'comment',
        at: now(),
      });
    } else if (each.op === 'reply' && picked) {
      await commentLocally(library, reviewer, {
        storyKey: key,
        replyTo: picked.id,
        body: `line ${++lines}`,
        kind: 'comment',
        at: now(),
      });
    } else if (each.op === 'resolve' && picked && picked.resolvedAt === null) {
      if (each.who === 'ana' || picked.author === 'cleo')
        await resolveLocally(library, reviewer, { storyKey: key, commentId: picked.id, at: now() });
    } else if (each.op === 'lose-record' && picked && !picked.waiting && picked.author === each.who) {
      // Killed after the newsroom took it, before the library noted it: it is sent again.
      db.prepare('UPDATE story_review_comments SET comment_waiting = 1 WHERE id = ?').run(picked.id);
      db.prepare("UPDATE story_review_approvals SET waiting = 1 WHERE approved_by = 'cleo'").run();
    }
  }
}

describe('offline review work in any order', () => {
  it('ends with both copies equal to the newsroom and each comment once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 14 }), async (steps) => {
        const story = await ana.library.createStory(`Story ${++stories}`);
        await ana.library.addTextToStory(story.id, 'A line of text.');
        const source = (await ana.library.findStory('Ferry contract')).items.filter(
          (item) => item.kind === 'quote',
        );
        for (const quote of source)
          await ana.library.addQuoteToStory(story.id, quote.highlightId!, { again: true });
        const key = `ana/${story.id}`;
        await shareStoryLocally(ana.library, ana.reviewer, String(story.id), 'City');
        await ana.sync.sync();
        await cleo.sync.sync();
        const before = lines;
        await run(key, steps);
        for (const user of ['ana', 'cleo', 'ana', 'cleo'] as const) await desk(user).sync.sync();

        const comments = await server().pool.query<{
          id: string;
          author: string;
          body: string;
          reply_to: string | null;
          resolved_by: string | null;
        }>(
          `SELECT id, author, body, reply_to, resolved_by FROM verbatim.story_comments
           WHERE reporter = 'ana' AND story_id = $1 ORDER BY created_at, id`,
          [String(story.id)],
        );
        const bodies = comments.rows.map((row) => row.body).sort();
        expect(bodies).toEqual(
          Array.from({ length: lines - before }, (_, n) => `line ${before + n + 1}`).sort(),
        );
        const approvals = await server().pool.query<{ quote_key: string; withdrawn: boolean }>(
          `SELECT quote_key, withdrawn FROM verbatim.story_approvals WHERE reporter = 'ana' AND story_id = $1 ORDER BY quote_key`,
          [String(story.id)],
        );
        for (const user of ['ana', 'cleo'] as const) {
          const copy = (await read(user, key))!;
          expect(
            copy.comments.map((comment) => ({
              id: comment.id,
              author: comment.author,
              body: comment.body,
              reply_to: comment.replyTo,
              resolved_by: comment.resolvedBy,
            })),
          ).toEqual(comments.rows);
          expect(copy.comments.every((comment) => !comment.waiting)).toBe(true);
          expect(
            copy.approvals.map((approval) => ({
              quote_key: approval.quoteKey,
              withdrawn: approval.withdrawn,
              waiting: approval.waiting,
            })),
          ).toEqual(approvals.rows.map((row) => ({ ...row, waiting: false })));
        }
      }),
      { numRuns: 25 },
    );
  });
});
