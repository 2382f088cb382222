import { beforeAll, describe, expect, it } from 'vitest';
import type { SharedStory, SharedStorySummary, StoryShare } from '../../shared/story-review';
import { statSync } from 'node:fs';
import { ferryRecording, writeFerryStory } from '../core/collaboration/story-review.test-kit';
import { passwordOf, setUpSampleNewsroom } from '../core/newsroom/newsroom-archive.test-kit';
import { useNewsroomServer } from '../core/newsroom/newsroom-server.test-kit';
import { useAppTestbeds, type AppTestbed } from './ipc-testbed.test-kit';

/**
 * Stories an editor reviews through the app's dispatcher (issue #36, point 2): ana's app shares a
 * story, cleo's comments, asks for a change and approves, ana's answers and resolves; every call
 * is checked against the contract both ways, and each window hears `reviews.changed`.
 */
const server = useNewsroomServer();
beforeAll(() => setUpSampleNewsroom(server()));
const app = useAppTestbeds();

async function signedIn(user: string): Promise<AppTestbed> {
  const testbed = app();
  await testbed.call('newsroom.setSettings', { address: server().urlFor(user), password: passwordOf(user) });
  return testbed;
}

describe('the story review over the contract', () => {
  it('shares, comments, replies, resolves and approves between ana’s and cleo’s apps', async () => {
    const ana = await signedIn('ana');
    const cleo = await signedIn('cleo');
    const story = await writeFerryStory(ana.services.core.library);
    expect(await ana.call('reviews.shareState', { storyId: story.id })).toBeNull();

    const shared = await ana.call<{ share: StoryShare; sent: unknown }>('reviews.share', {
      storyId: story.id,
      desk: 'City',
    });
    const key = `ana/${story.id}`;
    expect(shared).toEqual({
      share: { storyId: story.id, key, desk: 'City', revisionAsked: 1, revisionSent: 1, error: null },
      sent: { state: 'sent' },
    });
    expect(ana.events.filter((event) => event.event === 'reviews.changed').at(-1)?.payload).toEqual({
      keys: [key],
    });

    expect(await cleo.call('reviews.sync')).toEqual({ state: 'sent' });
    const list = await cleo.call<SharedStorySummary[]>('reviews.list');
    expect(list).toEqual([expect.objectContaining({ key, mine: false, quotes: 3, openComments: 0 })]);
    const seen = await cleo.call<SharedStory>('reviews.get', { key });
    const quote = seen.items.find((item) => item.kind === 'quote')!;

    const { comment, sent } = await cleo.call<{ comment: { id: string; waiting: boolean }; sent: unknown }>(
      'reviews.comment',
      {
        key,
        anchor: { kind: 'quote', quoteKey: quote.key },
        body: 'Who else said this?',
        kind: 'change-request',
      },
    );
    expect(sent).toEqual({ state: 'sent' });
    expect(comment.waiting).toBe(false);
    expect(await cleo.call('reviews.approve', { key, quoteKey: quote.key })).toMatchObject({
      approval: { by: 'cleo', withdrawn: false, waiting: false },
      sent: { state: 'sent' },
    });

    await ana.call('reviews.sync');
    const reply = await ana.call<{ comment: { replyTo: string; anchor: unknown } }>('reviews.comment', {
      key,
      replyTo: comment.id,
      body: 'The harbour master said it too.',
    });
    expect(reply.comment).toMatchObject({
      replyTo: comment.id,
      anchor: { kind: 'quote', quoteKey: quote.key },
    });
    expect(await ana.call('reviews.resolve', { key, commentId: comment.id })).toMatchObject({
      comment: { resolvedBy: 'ana', waiting: false },
      sent: { state: 'sent' },
    });

    await cleo.call('reviews.sync');
    const after = await cleo.call<SharedStory>('reviews.get', { key });
    expect(after.comments.map((each) => [each.author, each.kind, each.resolvedBy])).toEqual([
      ['cleo', 'change-request', 'ana'],
      ['ana', 'comment', null],
    ]);
    expect(after.approvals).toEqual([expect.objectContaining({ quoteKey: quote.key, by: 'cleo' })]);
  });

  it('refuses in words: a comment about nothing, approving one’s own story, a story not shared with the user', async () => {
    const ana = await signedIn('ana');
    const dev = await signedIn('dev');
    const story = await writeFerryStory(ana.services.core.library);
    await ana.call('reviews.share', { storyId: story.id, desk: 'City' });
    const key = `ana/${story.id}`;
    expect((await ana.failure('reviews.comment', { key, body: 'Hm.' })).code).toBe('invalid_input');
    const own = await ana.failure('reviews.approve', { key, quoteKey: '2' });
    expect(own.message).toBe(
      "You approve the quotes of stories shared with you, not your own: City's editor approves these.",
    );
    await dev.call('reviews.sync');
    expect(await dev.call('reviews.list')).toEqual([]);
    const hidden = await dev.failure('reviews.get', { key });
    expect(hidden).toMatchObject({
      code: 'not_found',
      message: `There is no story ${key} shared with you: check the reporter and the id (story reviews lists them).`,
    });
  });

  it('plays a quote’s sound as its reporter shared it: a data address for the editor, refused to a reporter of another desk', async () => {
    const ana = await signedIn('ana');
    const cleo = await signedIn('cleo');
    const dev = await signedIn('dev');
    const story = await writeFerryStory(ana.services.core.library);
    await ana.call('reviews.share', { storyId: story.id, desk: 'City' });
    const key = `ana/${story.id}`;
    await cleo.call('reviews.sync');
    const seen = await cleo.call<SharedStory>('reviews.get', { key });
    const quote = seen.items.find((item) => item.kind === 'quote')!;

    const clip = await cleo.call<{ mimeType: string; url: string }>('reviews.clip', {
      key,
      quoteKey: quote.key,
    });
    expect(clip.mimeType).toBe('audio/wav');
    const [head, data] = clip.url.split(',');
    expect(head).toBe('data:audio/wav;base64');
    const bytes = Buffer.from(data!, 'base64');
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    // Cut from the quote's span of the recording: a few seconds of it, not the whole interview.
    expect(bytes.byteLength).toBeLessThan(statSync(ferryRecording).size);

    expect((await cleo.failure('reviews.clip', { key, quoteKey: '999' })).message).toBe(
      'This quote is no longer in the story: its reporter took it out.',
    );
    await dev.call('reviews.sync');
    expect(await dev.failure('reviews.clip', { key, quoteKey: quote.key })).toMatchObject({
      code: 'not_found',
      message: `There is no story ${key} shared with you: check the reporter and the id (story reviews lists them).`,
    });
  });

  it('a change made while the newsroom cannot be reached is kept and says it waits', async () => {
    const ana = app();
    // A port nobody listens on: the newsroom is unreachable.
    await ana.call('newsroom.setSettings', {
      address: server().urlFor('ana').replace(`:${server().port}/`, ':1/'),
      password: passwordOf('ana'),
    });
    const story = await writeFerryStory(ana.services.core.library);
    const shared = await ana.call<{ share: StoryShare; sent: { state: string; reason: string } }>(
      'reviews.share',
      { storyId: story.id, desk: 'City' },
    );
    expect(shared.share).toMatchObject({ revisionAsked: 1, revisionSent: 0 });
    expect(shared.sent.state).toBe('waiting');
    expect(shared.sent.reason).toContain('newsroom');
  });

  it("a colleague's comment reaches an open app within a second, unasked: the story, a notice, and every window told", async () => {
    const ana = await signedIn('ana');
    const cleo = await signedIn('cleo');
    // Story ids start at 1 in every library: this one is numbered apart from the other tests' stories.
    for (const name of ['Draft 1', 'Draft 2', 'Draft 3', 'Draft 4'])
      await ana.services.core.library.createStory(name);
    const story = await writeFerryStory(ana.services.core.library);
    await ana.call('reviews.share', { storyId: story.id, desk: 'City' });
    const key = `ana/${story.id}`;
    // Cleo's app reads the newsroom on its own once it is told a story changed.
    await expect
      .poll(async () => (await cleo.call<SharedStorySummary[]>('reviews.list')).map((each) => each.key), {
        timeout: 5_000,
      })
      .toContain(key);
    await expect.poll(() => ana.services.collaboration.listening, { timeout: 5_000 }).toBe(true);
    const seen = await cleo.call<SharedStory>('reviews.get', { key });
    const quote = seen.items.find((item) => item.kind === 'quote')!;
    const noticed = ana.nextEvent('notices.changed');
    const sentAt = Date.now();
    await cleo.call('reviews.comment', {
      key,
      anchor: { kind: 'quote', quoteKey: quote.key },
      body: 'Check this against the tape.',
    });
    await noticed;
    expect(Date.now() - sentAt).toBeLessThan(1_000);
    const [notice] = await ana.services.core.notices.list();
    expect(notice).toMatchObject({ kind: 'comment', by: 'cleo', target: { kind: 'story', storyKey: key } });
    const mine = await ana.call<SharedStory>('reviews.get', { key });
    expect(mine.comments.map((comment) => comment.body)).toEqual(['Check this against the tape.']);
    expect(ana.events.some((event) => event.event === 'reviews.changed')).toBe(true);
  });
});
