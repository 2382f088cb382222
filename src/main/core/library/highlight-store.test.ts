import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database';
import { Library } from './library';
import {
  completedTranscriptFromLines,
  misheardTimings,
  type TranscriptLine,
} from './completed-transcript.test-kit';
import { wordsInSpan } from './highlight-store';
import { countCap } from './transcript-search';
import type { HighlightsChanged, StoriesChanged } from '../../../shared/highlights';

let db: Db;
let library: Library;
let clock = 1_000;

/**
 * Words are 400 ms apart and last 350 ms: "Mayor" 0–350, "Brenan" 400–750, "opened" 800–1150,
 * "the" 1200–1550, "meeting." 1600–1950; the second sentence starts at 3000, the third at 6000.
 */
const ferryLines: TranscriptLine[] = [
  ['A', 'Mayor Brenan opened the meeting.', 0],
  ['A', 'The ferry contract was signed.', 3000],
  ['B', 'Brenan is wrong about the ferry.', 6000],
];

async function storeTranscript(id: string, title: string, lines: readonly TranscriptLine[]): Promise<void> {
  await library.createJob({
    id,
    title,
    sourceKind: 'file',
    source: `/rec/${id}.wav`,
    audioPath: `/rec/${id}.wav`,
    region: 'us',
    options: {},
    status: 'fetching',
  });
  await library.saveCompleted(
    id,
    completedTranscriptFromLines(lines, misheardTimings, { transcript: { id: `remote-${id}` } }),
  );
}

beforeEach(async () => {
  db = openDatabase(':memory:');
  library = new Library(db, () => clock++);
  await storeTranscript('t1', 'Ferry interview', ferryLines);
  await storeTranscript('t2', 'Harbour interview', [['C', 'The harbour budget doubled last year.', 0]]);
});

afterEach(() => db.close());

/** Changes are announced once the caller has its answer, on the next turn of the event loop. */
const announced = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('wordsInSpan', () => {
  const sentence = {
    speaker: 'A',
    words: [
      { text: 'one', start: 0, end: 350, confidence: 1 },
      { text: 'two', start: 400, end: 750, confidence: 1 },
      { text: 'three', start: 800, end: 1150, confidence: 1 },
    ],
  };

  it('takes each word mostly inside the span, whole, and snaps the span to them', () => {
    expect(wordsInSpan([sentence], 200, 700)).toMatchObject({
      text: 'two',
      startMs: 400,
      endMs: 750,
      speaker: 'A',
    });
    expect(wordsInSpan([sentence], 100, 1000)?.text).toBe('one two three');
  });

  it('leaves out a word the span cuts in half or less, and one it only touches', () => {
    expect(wordsInSpan([sentence], 175, 1150)?.text).toBe('two three');
    expect(wordsInSpan([sentence], 350, 400)).toBeNull();
    expect(wordsInSpan([sentence], 750, 1150)?.text).toBe('three');
  });
});

describe('highlights', () => {
  it('follows the words when the service transcript is fetched again', async () => {
    const highlight = await library.createHighlight({ transcriptId: 't1', startMs: 400, endMs: 750 });
    expect(highlight.text).toBe('Brenan');
    await library.saveCompleted(
      't1',
      completedTranscriptFromLines(
        [['A', 'Mayor Brennan opened the meeting.', 0], ...ferryLines.slice(1)],
        misheardTimings,
        { transcript: { id: 'remote-t1' } },
      ),
    );
    expect((await library.highlight(highlight.id)).text).toBe('Brennan');
  });

  it('snaps a span to the words mostly spoken in it, with the speaker and its name', async () => {
    await library.renameSpeaker('t1', 'A', 'Mayor Elena Alvarez');
    const highlight = await library.createHighlight({
      transcriptId: 't1',
      startMs: 500,
      endMs: 1400,
      note: 'lede',
    });
    expect(highlight).toMatchObject({
      transcriptId: 't1',
      startMs: 400,
      endMs: 1550,
      text: 'Brenan opened the',
      speaker: 'A',
      speakerName: 'Mayor Elena Alvarez',
      note: 'lede',
      missing: false,
    });
    expect((await library.highlightLabels()).find((label) => label.id === highlight.labelId)?.name).toBe(
      'Quote',
    );
  });

  it('refuses a span in which nothing is said, in plain words', async () => {
    await expect(library.createHighlight({ transcriptId: 't1', startMs: 2000, endMs: 2900 })).rejects.toThrow(
      'Nothing is said between 00:02 and 00:02 in this transcript',
    );
    await expect(library.createHighlight({ transcriptId: 'gone', startMs: 0, endMs: 100 })).rejects.toThrow(
      'no longer in your library',
    );
  });

  it('lists a transcript’s highlights in the order they are spoken', async () => {
    await library.createHighlight({ transcriptId: 't1', startMs: 6000, endMs: 6400 });
    await library.createHighlight({ transcriptId: 't1', startMs: 0, endMs: 300 });
    expect((await library.highlightsOf('t1')).map((h) => h.text)).toEqual(['Mayor', 'Brenan']);
  });

  it('follows a correction that replaces its words, and undo brings them back', async () => {
    const highlight = await library.createHighlight({ transcriptId: 't1', startMs: 400, endMs: 1150 });
    await announced();
    const changes: HighlightsChanged[] = [];
    library.highlightsChanged.subscribe((change) => changes.push(change));
    await library.edit('t1', {
      kind: 'replace',
      find: 'Brenan',
      replacement: 'Brennan',
      wholeWord: true,
      matchCase: true,
    });
    expect((await library.highlight(highlight.id)).text).toBe('Brennan opened');
    expect((await library.quotes({ query: 'brennan' })).total).toBe(1);
    expect((await library.quotes({ query: 'brenan' })).total).toBe(0);
    expect(changes).toEqual([]);
    await announced();
    expect(changes).toEqual([{ transcriptIds: ['t1'] }]);
    await library.undo('t1');
    expect((await library.highlight(highlight.id)).text).toBe('Brenan opened');
  });

  it('says it is missing once a correction deletes all its words, keeping the last words known', async () => {
    const highlight = await library.createHighlight({ transcriptId: 't1', startMs: 3000, endMs: 5000 });
    expect(highlight.text).toBe('The ferry contract was signed.');
    await library.edit('t1', { kind: 'text', from: 1, count: 1, text: '' });
    const after = await library.highlight(highlight.id);
    expect(after).toMatchObject({ missing: true, text: 'The ferry contract was signed.' });
    await library.undo('t1');
    expect((await library.highlight(highlight.id)).missing).toBe(false);
  });

  it('changes label and note, and renames and recolours a label', async () => {
    const highlight = await library.createHighlight({ transcriptId: 't1', startMs: 0, endMs: 300 });
    const check = await library.highlightLabelNamed('check');
    const updated = await library.updateHighlight(highlight.id, {
      labelId: check.id,
      note: 'verify the date',
    });
    expect(updated).toMatchObject({ labelId: check.id, note: 'verify the date' });
    expect(
      await library.updateHighlightLabel(check.id, { name: 'Fact-check', color: 'purple' }),
    ).toMatchObject({
      name: 'Fact-check',
      color: 'purple',
    });
    await expect(library.updateHighlightLabel(check.id, { name: 'quote' })).rejects.toThrow(
      'There is already a label called “quote”.',
    );
    await expect(library.highlightLabelNamed('Nope')).rejects.toThrow(
      'The labels are: Quote, Fact-check, Background.',
    );
    await library.deleteHighlight(highlight.id);
    expect(await library.highlightsOf('t1')).toEqual([]);
  });
});

describe('the Quotes view', () => {
  beforeEach(async () => {
    const check = await library.highlightLabelNamed('Check');
    await library.createHighlight({ transcriptId: 't1', startMs: 0, endMs: 2000, note: 'opening line' });
    await library.createHighlight({ transcriptId: 't1', startMs: 6000, endMs: 8400, labelId: check.id });
    await library.createHighlight({ transcriptId: 't2', startMs: 0, endMs: 2500, note: 'budget figure' });
    await library.setTags('t2', ['harbour']);
    await library.renameSpeaker('t1', 'B', 'Councillor Ruiz');
  });

  const texts = async (filters: Parameters<Library['quotes']>[0]): Promise<string[]> =>
    (await library.quotes(filters)).quotes.map((quote) => quote.text);

  it('lists every highlight with its transcript, label and date, newest recording first', async () => {
    const { quotes, total } = await library.quotes();
    expect(total).toBe(3);
    expect(quotes[0]).toMatchObject({
      transcriptTitle: 'Harbour interview',
      labelName: 'Quote',
      labelColor: 'yellow',
    });
    expect(quotes.map((quote) => quote.transcriptId)).toEqual(['t2', 't1', 't1']);
  });

  it('filters by label, speaker name or label, tag, transcript and date', async () => {
    const check = await library.highlightLabelNamed('Check');
    expect(await texts({ labelId: check.id })).toEqual(['Brenan is wrong about the ferry.']);
    expect(await texts({ speaker: 'councillor ruiz' })).toEqual(['Brenan is wrong about the ferry.']);
    expect(await texts({ speaker: 'A' })).toEqual(['Mayor Brenan opened the meeting.']);
    expect(await texts({ tag: 'harbour' })).toEqual(['The harbour budget doubled last year.']);
    expect(await texts({ transcriptId: 't1' })).toHaveLength(2);
    const t2 = await library.requireJob('t2');
    expect(await texts({ from: t2.createdAt })).toEqual(['The harbour budget doubled last year.']);
    expect(await texts({ to: t2.createdAt - 1 })).toHaveLength(2);
  });

  it('searches the highlighted words and the notes, the last word as a prefix', async () => {
    expect(await texts({ query: 'ferr' })).toEqual(['Brenan is wrong about the ferry.']);
    expect(await texts({ query: 'budget fig' })).toEqual(['The harbour budget doubled last year.']);
    expect(await texts({ query: 'opening' })).toEqual(['Mayor Brenan opened the meeting.']);
    expect(await texts({ query: 'contract' })).toEqual([]);
    expect(await texts({ query: 'ferry', labelId: (await library.highlightLabelNamed('Quote')).id })).toEqual(
      [],
    );
    expect(await texts({ query: '"(*' })).toHaveLength(3);
  });

  it('pages in the same order a search or a filter gives, and counts up to the cap', async () => {
    const all = (await library.quotes()).quotes.map((quote) => quote.id);
    const pages = [0, 1, 2].map(async (offset) => (await library.quotes({ limit: 1, offset })).quotes);
    expect((await Promise.all(pages)).flat().map((quote) => quote.id)).toEqual(all);
    const firstPage = await library.quotes({ limit: 1 });
    expect(firstPage).toMatchObject({ total: 3, totalIsLowerBound: false });
    const searched = await library.quotes({ query: 'brenan', limit: 1 });
    expect(searched).toMatchObject({ total: 2, totalIsLowerBound: false });
    expect(searched.quotes.map((quote) => quote.id)).toEqual(all.slice(1, 2));

    for (let start = 10_000; start < 10_000 + 3 * (countCap + 1); start += 3)
      db.prepare(
        `INSERT INTO highlights (transcript_id, start_ms, end_ms, label_id, words_text, created_at)
         VALUES ('t2', ?, ?, 1, 'The harbour budget', 1)`,
      ).run(start, start + 2);
    expect(await library.quotes({ limit: 5 })).toMatchObject({ total: countCap, totalIsLowerBound: true });
    expect(await library.quotes({ query: 'harb', limit: 5 })).toMatchObject({
      total: countCap,
      totalIsLowerBound: true,
    });
  });

  it('dates a highlight by its recording even when the recording date changes later', async () => {
    const t1 = await library.requireJob('t1');
    db.prepare("UPDATE transcripts SET created_at = ? WHERE id = 't1'").run(t1.createdAt + 1_000_000);
    const { quotes } = await library.quotes();
    expect(quotes.map((quote) => quote.transcriptId)).toEqual(['t1', 't1', 't2']);
    expect(await texts({ from: t1.createdAt + 1_000_000 })).toHaveLength(2);
  });

  it('offers as filters only the transcripts, speakers and tags that have quotes', async () => {
    await storeTranscript('t3', 'No highlights here', [['D', 'Nothing marked.', 0]]);
    await library.setTags('t3', ['unused']);
    expect(await library.quoteFacets()).toEqual({
      transcripts: [
        { id: 't2', title: 'Harbour interview' },
        { id: 't1', title: 'Ferry interview' },
      ],
      speakers: [
        { value: 'Councillor Ruiz', name: 'Councillor Ruiz' },
        { value: 'Speaker A', name: 'Speaker A' },
        { value: 'Speaker C', name: 'Speaker C' },
      ],
      tags: ['harbour'],
    });
    // Every speaker offered finds its quotes.
    for (const { value } of (await library.quoteFacets()).speakers)
      expect((await library.quotes({ speaker: value })).total).toBeGreaterThan(0);
  });
});

describe('stories', () => {
  it('refuses a highlight the story already quotes, saying where, and adds it again when told', async () => {
    const story = await library.createStory('Ferry piece');
    const quote = await library.createHighlight({ transcriptId: 't1', startMs: 0, endMs: 2000 });
    await library.addQuoteToStory(story.id, quote.id);
    await library.addTextToStory(story.id, 'Intro', 0);
    const refusal = await library.addQuoteToStory(story.id, quote.id).catch((error: unknown) => error);
    expect(refusal).toMatchObject({
      code: 'conflict',
      message:
        'This quote is already in the story “Ferry piece”, as item 2 of 2. Add it again only if you mean to quote it there twice.',
      details: { reason: 'quote_already_in_story', storyId: story.id, positions: [2], items: 2 },
    });
    expect((await library.story(story.id)).quotes).toBe(1);

    await library.addQuoteToStory(story.id, quote.id, { again: true });
    const second = await library.addQuoteToStory(story.id, quote.id).catch((error: unknown) => error);
    expect(second).toMatchObject({ details: { positions: [2, 3], items: 3 } });
    expect((second as Error).message).toContain('as items 2 and 3 of 3.');
    // Another story is free to quote it.
    const other = await library.createStory('Harbour piece');
    expect((await library.addQuoteToStory(other.id, quote.id)).quotes).toBe(1);
  });

  it('keeps its items in order through adds at a position, moves and removals', async () => {
    const story = await library.createStory('Ferry piece');
    const a = await library.createHighlight({ transcriptId: 't1', startMs: 0, endMs: 2000 });
    const b = await library.createHighlight({ transcriptId: 't2', startMs: 0, endMs: 2500 });
    await library.addQuoteToStory(story.id, a.id);
    await library.addQuoteToStory(story.id, b.id);
    let current = await library.addTextToStory(story.id, 'Intro', 0);
    const describeItems = (s: typeof current): string[] => s.items.map((item) => `${item.kind}:${item.text}`);
    expect(describeItems(current)).toEqual([
      'text:Intro',
      'quote:Mayor Brenan opened the meeting.',
      'quote:The harbour budget doubled last year.',
    ]);
    const [intro, first, second] = current.items;
    current = await library.moveStoryItem(story.id, second!.id, 0);
    expect(current.items.map((item) => item.id)).toEqual([second!.id, intro!.id, first!.id]);
    current = await library.moveStoryItem(story.id, second!.id, 99);
    expect(current.items.map((item) => item.id)).toEqual([intro!.id, first!.id, second!.id]);
    current = await library.editStoryText(story.id, intro!.id, 'The ferry deal');
    current = await library.removeStoryItem(story.id, first!.id);
    expect(describeItems(current)).toEqual([
      'text:The ferry deal',
      'quote:The harbour budget doubled last year.',
    ]);
    expect(current.quotes).toBe(1);
    await expect(library.editStoryText(story.id, second!.id, 'x')).rejects.toThrow(
      'correct them in the transcript',
    );
  });

  it('are found by any word of their name, own text, quotes, speakers or sources, accents aside', async () => {
    const ferry = await library.createStory('Ferry piece');
    const budget = await library.createStory('Budget notes');
    const quote = await library.createHighlight({ transcriptId: 't1', startMs: 6000, endMs: 8400 });
    await library.addQuoteToStory(ferry.id, quote.id);
    await library.addTextToStory(budget.id, 'Ask the harbour master about Ortíz');
    await library.renameSpeaker('t1', 'B', 'Councillor Ruiz');
    const found = async (query: string): Promise<string[]> =>
      (await library.searchStories(query)).map((story) => `${story.name}: ${story.match}`);
    expect(await found('wrong ferr')).toEqual([
      'Ferry piece: Brenan is wrong about the ferry. — Speaker B — Ferry interview',
    ]);
    expect(await found('brenan')).toEqual([
      'Ferry piece: Brenan is wrong about the ferry. — Speaker B — Ferry interview',
    ]);
    expect(await found('ortiz')).toEqual(['Budget notes: Ask the harbour master about Ortíz']);
    expect(await found('budget harbour')).toEqual(['Budget notes: Budget notes']);
    expect(await found('ferry interview')).toEqual(['Ferry piece: Ferry piece']);
    expect(await found('nothing here')).toEqual([]);
    expect(await found('  ')).toEqual([]);
  });

  it('has unique names, ignoring case, and is found by name or id', async () => {
    const story = await library.createStory('Ferry piece');
    await expect(library.createStory('ferry PIECE')).rejects.toThrow(
      'There is already a story called “ferry PIECE”.',
    );
    expect((await library.findStory('FERRY piece')).id).toBe(story.id);
    expect((await library.findStory(String(story.id))).name).toBe('Ferry piece');
    await expect(library.findStory('Nothing')).rejects.toThrow('There is no story called “Nothing”.');
    await library.renameStory(story.id, 'Ferry deal');
    expect((await library.storyList()).map((s) => s.name)).toEqual(['Ferry deal']);
    await library.deleteStory(story.id);
    expect(await library.storyList()).toEqual([]);
  });

  it('shows a quote’s current words after a correction, and trims it to a new narrower highlight', async () => {
    const story = await library.createStory('Ferry piece');
    const highlight = await library.createHighlight({ transcriptId: 't1', startMs: 0, endMs: 2000 });
    const stories: StoriesChanged[] = [];
    library.storiesChanged.subscribe((change) => stories.push(change));
    const { items } = await library.addQuoteToStory(story.id, highlight.id);
    await library.edit('t1', {
      kind: 'replace',
      find: 'Brenan',
      replacement: 'Brennan',
      wholeWord: true,
      matchCase: true,
    });
    expect((await library.story(story.id)).items[0]).toMatchObject({
      text: 'Mayor Brennan opened the meeting.',
    });
    await announced();
    expect(stories).toContainEqual({ storyIds: [story.id] });
    const trimmed = await library.trimStoryQuote(story.id, items[0]!.id, 0, 750);
    expect(trimmed.items[0]).toMatchObject({ text: 'Mayor Brennan', startMs: 0, endMs: 750 });
    expect((await library.highlight(highlight.id)).text).toBe('Mayor Brennan opened the meeting.');
    await expect(library.trimStoryQuote(story.id, items[0]!.id, 0, 1200)).rejects.toThrow(
      'only be trimmed to fewer of its own words',
    );
  });

  it('keeps a deleted transcript’s quotes as text by default, and leaves unrelated stories alone', async () => {
    const ferry = await library.createStory('Ferry piece');
    const harbour = await library.createStory('Harbour piece');
    const a = await library.createHighlight({ transcriptId: 't1', startMs: 0, endMs: 2000 });
    const b = await library.createHighlight({ transcriptId: 't2', startMs: 0, endMs: 2500 });
    await library.addQuoteToStory(ferry.id, a.id);
    await library.addQuoteToStory(ferry.id, b.id);
    await library.addQuoteToStory(harbour.id, b.id);
    expect(await library.storyQuotesOf('t1')).toEqual({ quotes: 1, stories: ['Ferry piece'] });
    await library.delete('t1');
    const kept = await library.story(ferry.id);
    expect(kept.items[0]).toMatchObject({
      kind: 'quote',
      highlightId: null,
      text: 'Mayor Brenan opened the meeting.',
      transcriptTitle: 'Ferry interview',
      missing: true,
    });
    expect(kept.items[1]).toMatchObject({ highlightId: b.id, missing: false });
    expect((await library.story(harbour.id)).items).toHaveLength(1);
  });

  it('removes a deleted transcript’s quotes when asked, and no other item', async () => {
    const ferry = await library.createStory('Ferry piece');
    const a = await library.createHighlight({ transcriptId: 't1', startMs: 0, endMs: 2000 });
    const b = await library.createHighlight({ transcriptId: 't2', startMs: 0, endMs: 2500 });
    await library.addTextToStory(ferry.id, 'Intro');
    await library.addQuoteToStory(ferry.id, a.id);
    await library.addQuoteToStory(ferry.id, b.id);
    await library.delete('t1', { quotesInStories: 'remove' });
    const after = await library.story(ferry.id);
    expect(after.items.map((item) => item.text)).toEqual(['Intro', 'The harbour budget doubled last year.']);
    await library.moveStoryItem(ferry.id, after.items[1]!.id, 0);
    expect((await library.story(ferry.id)).items.map((item) => item.kind)).toEqual(['quote', 'text']);
  });
});
