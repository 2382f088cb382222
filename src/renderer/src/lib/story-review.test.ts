import { describe, expect, it } from 'vitest';
import type { Story } from '../../../shared/highlights';
import type { SharedStory, StoryComment } from '../../../shared/story-review';
import type { Segment } from '../../../shared/library';
import { buildModel } from './reader-model';
import {
  commentThreads,
  openThreadCount,
  passageOf,
  piecesOfText,
  quotedInTranscript,
  reviewByTurn,
  shareStateText,
  turnReviewText,
  type QuotedHere,
  standingApproval,
  threadsAtPassage,
  threadsAtQuote,
} from './story-review';

const ids = ['a', 'b', 'c', 'd', 'e'].map((letter) => `${letter.repeat(8)}-0000-4000-8000-000000000000`);

function comment(index: number, overrides: Partial<StoryComment> = {}): StoryComment {
  return {
    id: ids[index]!,
    storyKey: 'ana/3',
    author: 'cleo',
    anchor: { kind: 'quote', quoteKey: '11' },
    kind: 'comment',
    body: `Comment ${index}`,
    replyTo: null,
    createdAt: 1_000 + index,
    resolvedBy: null,
    resolvedAt: null,
    waiting: false,
    ...overrides,
  };
}

const text = 'The council voted on Tuesday.';
const shared: SharedStory = {
  key: 'ana/3',
  reporter: 'ana',
  storyId: 3,
  desk: 'City',
  title: 'Ferry piece',
  revision: 1,
  sharedAt: 1,
  updatedAt: 1,
  mine: true,
  quotes: 2,
  openComments: 1,
  items: [
    { kind: 'text', key: '10', text },
    ...(['11', '12'] as const).map((key, index) => ({
      kind: 'quote' as const,
      key,
      text: `Quote ${index}`,
      speakerName: null,
      transcriptTitle: 'Ferry interview',
      recordedAt: 0,
      languageCode: 'en',
      startMs: index * 1000,
      endMs: index * 1000 + 900,
      citation: 'Ferry interview',
      checked: null,
    })),
  ],
  comments: [
    comment(0, { kind: 'change-request', resolvedBy: 'ana', resolvedAt: 2_000 }),
    comment(1, { author: 'ana', replyTo: ids[0]! }),
    comment(2, { anchor: { kind: 'passage', itemKey: '10', from: 4, to: 11, words: 'council' } }),
    comment(3, { author: 'cleo', replyTo: ids[1]! }),
  ],
  approvals: [
    { storyKey: 'ana/3', quoteKey: '11', by: 'cleo', at: 5, withdrawn: false, waiting: false },
    { storyKey: 'ana/3', quoteKey: '12', by: 'cleo', at: 6, withdrawn: true, waiting: false },
  ],
};

describe('the threads of a shared story', () => {
  it('gathers replies (and replies to replies) under the comment they answer, numbered as `story comments` numbers them', () => {
    const threads = commentThreads(shared);
    expect(
      threads.map((thread) => [thread.number, thread.resolved, thread.replies.map((r) => r.body)]),
    ).toEqual([
      [1, true, ['Comment 1', 'Comment 3']],
      [3, false, []],
    ]);
    expect(threadsAtQuote(threads, '11').map((thread) => thread.number)).toEqual([1]);
    expect(threadsAtQuote(threads, '12')).toEqual([]);
    expect(threadsAtPassage(threads, '10').map((thread) => thread.number)).toEqual([3]);
    expect(openThreadCount(threads)).toBe(1);
  });

  it('takes a withdrawn approval for none', () => {
    expect(standingApproval(shared.approvals, '11')?.by).toBe('cleo');
    expect(standingApproval(shared.approvals, '12')).toBeUndefined();
  });
});

describe('passages', () => {
  it('marks the words a passage comment is about, and none whose offsets no longer read them', () => {
    const threads = commentThreads(shared);
    expect(piecesOfText(text, threads)).toEqual([
      { text: 'The ' },
      { text: 'council', thread: 3 },
      { text: ' voted on Tuesday.' },
    ]);
    expect(piecesOfText('The mayor voted.', threads)).toEqual([{ text: 'The mayor voted.' }]);
    expect(piecesOfText('', [])).toEqual([{ text: '' }]);
  });

  it('trims the spaces around a selection, whichever way it was made', () => {
    expect(passageOf(text, 12, 3)).toEqual({ from: 4, to: 11, words: 'council' });
    expect(passageOf(text, 3, 4)).toBeUndefined();
  });
});

describe('a story’s share state', () => {
  const share = { storyId: 3, key: 'ana/3', desk: 'City', revisionAsked: 2, revisionSent: 2, error: null };
  it('says where it stands in words', () => {
    expect(shareStateText(share)).toBe('Shared with City’s editor · revision 2');
    expect(shareStateText({ ...share, revisionSent: 0 })).toBe('Waiting to be sent to City’s editor');
    expect(shareStateText({ ...share, revisionSent: 1 })).toBe(
      'Shared with City’s editor (revision 1); revision 2 waits to be sent',
    );
    expect(shareStateText({ ...share, error: 'You are not a member of City.' })).toBe(
      'Not shared: You are not a member of City.',
    );
  });
});

describe('a transcript’s quotes under review', () => {
  it('finds them through the reporter’s own story, with their number, comments and approval', () => {
    const quote = (id: number, transcriptId: string, startMs: number) => ({
      id,
      kind: 'quote' as const,
      highlightId: id + 100,
      text: 'x',
      speakerName: null,
      transcriptId,
      transcriptTitle: 't',
      recordedAt: 0,
      languageCode: null,
      startMs,
      endMs: startMs + 900,
      missing: false,
      checked: null,
    });
    const own: Story = {
      id: 3,
      name: 'Ferry piece',
      createdAt: 0,
      updatedAt: 0,
      quotes: 3,
      items: [
        { id: 10, kind: 'text', text },
        quote(11, 'ferry', 0),
        quote(12, 'other', 1000),
        quote(13, 'ferry', 2000),
      ],
    };
    const found = quotedInTranscript('ferry', own, shared);
    // Item 13 was added after the share: the newsroom's copy has no such quote yet.
    expect(found).toEqual([
      expect.objectContaining({
        storyKey: 'ana/3',
        quote: 1,
        highlightId: 111,
        startMs: 0,
        approval: shared.approvals[0],
      }),
    ]);
    expect(found[0]!.threads.map((thread) => thread.number)).toEqual([1]);
  });
});

describe('the review at the quoted words in the reader', () => {
  /** Two turns: A says four words from 0 s, B four from 5 s (each word 300 ms, 500 ms apart). */
  function spoken(position: number, speaker: string, startMs: number): Segment {
    const words = ['the', 'ferry', 'sails', 'today'].map((text, index) => ({
      text,
      start: startMs + index * 500,
      end: startMs + index * 500 + 300,
      confidence: 0.9,
    }));
    return {
      position,
      startMs,
      endMs: words.at(-1)!.end,
      speaker,
      confidence: 0.9,
      text: words.map((word) => word.text).join(' '),
      words,
    };
  }
  const model = buildModel([spoken(0, 'A', 0), spoken(1, 'B', 5000)], []);
  const threads = commentThreads({
    comments: [comment(0), comment(1, { resolvedBy: 'ana', resolvedAt: 5 })],
  });
  const quoted = (startMs: number, endMs: number, count: number, highlightId: number): QuotedHere => ({
    storyKey: 'ana/3',
    storyTitle: 'Ferry piece',
    quote: highlightId,
    highlightId,
    startMs,
    endMs,
    threads: threads.slice(0, count),
    approval: undefined,
  });

  it('marks the turn each commented quote starts in, counting its open threads, and nothing else', () => {
    const marks = reviewByTurn(model, [
      quoted(500, 1300, 2, 7),
      quoted(5000, 6300, 1, 8),
      // Approved without a word said: nothing to read at its words.
      quoted(1000, 1300, 0, 9),
      // Its words are gone from the transcript: nowhere to mark.
      quoted(20_000, 21_000, 1, 10),
    ]);
    expect([...marks.entries()]).toEqual([
      [0, { threads: 2, open: 1, highlightId: 7 }],
      [1, { threads: 1, open: 1, highlightId: 8 }],
    ]);
    expect(turnReviewText(marks.get(0)!)).toBe('1 open comment');
    expect(turnReviewText({ threads: 2, open: 0, highlightId: 7 })).toBe('2 comments, resolved');
    expect(turnReviewText({ threads: 3, open: 2, highlightId: 7 })).toBe('2 open comments');
  });
});
