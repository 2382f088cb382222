import { beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openDatabase } from './database';
import { Library, countCap, type CompletedTranscript } from './library';
import { highlight, queryTerms, toFtsQuery } from './fts-query';
import { completedTranscriptFromLines, type TranscriptLine } from './completed-transcript.test-kit';
import { VerbatimError } from '../../../shared/errors';

let library: Library;
let clock = 1_000;

function completed(sentences: TranscriptLine[]): CompletedTranscript {
  return completedTranscriptFromLines(
    sentences,
    { sentenceMs: 2000, sentenceConfidence: 0.9, wordEveryMs: 100, wordMs: 90, wordConfidence: 0.9 },
    {
      transcript: { id: 'remote', language_code: 'en_us', audio_duration: 61.4 },
      paragraphs: [{ text: sentences.map((s) => s[1]).join(' '), start: 0, end: 60_000, confidence: 0.9 }],
    },
  );
}

async function addTranscript(id: string, title: string, sentences: TranscriptLine[], createdAt?: number) {
  if (createdAt !== undefined) clock = createdAt;
  await library.createJob({
    id,
    title,
    sourceKind: 'file',
    source: `/rec/${id}.wav`,
    audioPath: `/rec/${id}.wav`,
    region: 'us',
    options: { speaker_labels: true },
    status: 'uploading',
  });
  await library.saveCompleted(id, completed(sentences));
}

beforeEach(() => {
  clock = 1_000;
  library = new Library(openDatabase(':memory:'), () => clock);
});

describe('the library', () => {
  it('stores a job before anything else happens, and moves it through its states', async () => {
    const job = await library.createJob({
      id: 'j1',
      title: 'Council',
      sourceKind: 'url',
      source: 'https://x/a.mp3',
      audioPath: null,
      region: 'eu',
      options: { speaker_labels: true },
      status: 'submitting',
    });
    expect(job).toMatchObject({
      id: 'j1',
      status: 'submitting',
      region: 'eu',
      options: { speaker_labels: true },
      remoteId: null,
    });
    clock = 2_000;
    const queued = await library.updateJob('j1', {
      status: 'queued',
      remoteId: 'r-1',
      uploadUrl: 'https://up/1',
      nextCheckAt: 5_000,
    });
    expect(queued).toMatchObject({
      status: 'queued',
      remoteId: 'r-1',
      uploadUrl: 'https://up/1',
      nextCheckAt: 5_000,
      updatedAt: 2_000,
    });
    expect((await library.unfinishedJobs()).map((j) => j.id)).toEqual(['j1']);
    await expect(library.updateJob('nope', { status: 'error' })).rejects.toBeInstanceOf(VerbatimError);
  });

  it('saves transcript, sentences and paragraphs together and reads them back in order', async () => {
    await addTranscript('t1', 'Ferry interview', [
      ['A', 'Thank you for joining us, Mayor.', 0],
      ['B', 'The ferry contract was signed in March.', 3000],
    ]);
    const job = await library.get('t1');
    expect(job).toMatchObject({ status: 'completed', languageCode: 'en_us', audioDurationMs: 61_400 });
    expect(job?.speakers).toEqual([
      { label: 'A', name: 'Speaker A' },
      { label: 'B', name: 'Speaker B' },
    ]);
    const sentences = await library.sentences('t1');
    expect(sentences.map((s) => [s.position, s.speaker, s.startMs])).toEqual([
      [0, 'A', 0],
      [1, 'B', 3000],
    ]);
    expect(sentences[1]?.words[1]).toMatchObject({ text: 'ferry', start: 3100 });
    const paragraphs = await library.paragraphs('t1');
    expect(paragraphs).toHaveLength(1);
    // Without their words: the same paragraphs, words left empty.
    expect(await library.paragraphs('t1', { words: false })).toEqual(
      paragraphs.map((paragraph) => ({ ...paragraph, words: [] })),
    );
    expect(await library.transcriptJson('t1')).toMatchObject({ id: 'remote', audio_duration: 61.4 });
    expect(await library.unfinishedJobs()).toEqual([]);
  });

  it('opens a transcript with its first sentences and the paragraphs they fall in, whatever the length', async () => {
    let stored = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('A', 'B'), fc.integer({ min: 200, max: 9_000 })), {
          maxLength: 30,
        }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 40 }),
        async (gaps, sentencesPerParagraph, limit) => {
          // Sentences one after another; a paragraph every few of them.
          let at = 0;
          const lines: TranscriptLine[] = gaps.map(([speaker, gap]) => {
            at += gap;
            return [speaker, `Sentence at ${at} ms.`, at];
          });
          const paragraphs = [];
          for (let first = 0; first < lines.length; first += sentencesPerParagraph) {
            const group = lines.slice(first, first + sentencesPerParagraph);
            paragraphs.push({
              text: group.map((line) => line[1]).join(' '),
              start: group[0]![2],
              end: group.at(-1)![2] + 2000,
              confidence: 0.9,
            });
          }
          const id = `t${stored++}`;
          await addTranscript(id, 'Long meeting', []);
          await library.saveCompleted(id, { ...completed(lines), paragraphs });

          const opening = await library.transcriptOpening(id, limit);
          const sentences = await library.sentences(id);
          expect(opening.job).toEqual(await library.requireJob(id));
          expect(opening.sentences).toEqual(sentences.slice(0, limit));
          expect(opening.complete).toBe(sentences.length <= limit);
          const lastEnd = opening.sentences.at(-1)?.endMs;
          expect(opening.paragraphs).toEqual(
            lastEnd === undefined
              ? []
              : (await library.paragraphs(id, { words: false })).filter((p) => p.startMs < lastEnd),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it('stores nothing of a transcript whose save fails half way', async () => {
    await library.createJob({
      id: 't1',
      title: 'x',
      sourceKind: 'file',
      source: '/a',
      audioPath: null,
      region: 'us',
      options: {},
      status: 'fetching',
    });
    const broken = completed([['A', 'First sentence.', 0]]);
    broken.sentences.push({ text: null as unknown as string, start: 1, end: 2 });
    await expect(library.saveCompleted('t1', broken)).rejects.toThrow();
    expect(await library.get('t1')).toMatchObject({ status: 'fetching' });
    expect(await library.sentences('t1')).toEqual([]);
  });

  it('renames a speaker once and the name is used in search hits too', async () => {
    await addTranscript('t1', 'Ferry interview', [['B', 'The ferry contract was signed in March.', 3000]]);
    await library.renameSpeaker('t1', 'B', '  Mayor Ortiz ');
    expect((await library.get('t1'))?.speakers).toEqual([{ label: 'B', name: 'Mayor Ortiz' }]);
    const page = await library.search('ferry');
    expect(page.hits[0]).toMatchObject({ speaker: 'B', speakerName: 'Mayor Ortiz' });
    expect((await library.search('ferry', { speaker: 'mayor ortiz' })).total).toBe(1);
    await expect(library.renameSpeaker('t1', 'B', '   ')).rejects.toThrow('name');
  });

  it('finds a sentence with its transcript, speaker, time and a highlighted snippet', async () => {
    await addTranscript('t1', 'Ferry interview', [
      ['A', 'Where were you on the night of the vote?', 0],
      ['B', 'The ferry contract was signed in March.', 3000],
    ]);
    const page = await library.search('contract');
    expect(page.total).toBe(1);
    expect(page.hits[0]).toMatchObject({
      transcriptId: 't1',
      transcriptTitle: 'Ferry interview',
      sentencePosition: 1,
      startMs: 3000,
      endMs: 5000,
    });
    expect(page.hits[0]?.snippet).toEqual([
      { text: 'The ferry ', match: false },
      { text: 'contract', match: true },
      { text: ' was signed in March.', match: false },
    ]);
  });

  it('ranks better matches first and pages through the rest', async () => {
    await addTranscript('t1', 'One', [
      ['A', 'ferry ferry ferry', 0],
      ['A', 'a long sentence that mentions the ferry only once among many other words here', 1000],
      ['A', 'ferry ferry', 2000],
    ]);
    const first = await library.search('ferry', {}, { limit: 2 });
    expect(first.total).toBe(3);
    expect(first.hits.map((h) => h.sentencePosition)).toEqual([0, 2]);
    const second = await library.search('ferry', {}, { limit: 2, offset: 2 });
    expect(second.hits.map((h) => h.sentencePosition)).toEqual([1]);
  });

  it('filters by date, tag, language and status', async () => {
    await addTranscript('old', 'Old', [['A', 'budget hearing', 0]], 100);
    await addTranscript('new', 'New', [['A', 'budget vote', 0]], 900);
    await library.setTags('new', ['Council', 'budget', 'council']);
    expect((await library.get('new'))?.tags).toEqual(['budget', 'Council']);
    const ids = async (filters: Parameters<Library['search']>[1]) =>
      (await library.search('budget', filters)).hits.map((h) => h.transcriptId).sort();
    expect(await ids({})).toEqual(['new', 'old']);
    expect(await ids({ from: 500 })).toEqual(['new']);
    expect(await ids({ to: 500 })).toEqual(['old']);
    expect(await ids({ tag: 'council' })).toEqual(['new']);
    expect(await ids({ language: 'en' })).toEqual(['new', 'old']);
    expect(await ids({ language: 'es' })).toEqual([]);
    expect(await ids({ status: 'completed' })).toEqual(['new', 'old']);
    expect(await ids({ status: 'error' })).toEqual([]);
  });

  it('searches as you type, phrases in quotes, accents and other scripts', async () => {
    await addTranscript('t1', 'Mixed', [
      ['A', 'The ferry contract was signed.', 0],
      ['A', 'Contract signed, ferry later.', 1000],
      ['A', 'Le café de la mairie est fermé.', 2000],
      ['A', 'Ο δήμαρχος μίλησε για το πλοίο.', 3000],
      ['A', 'قال رئيس البلدية إن العقد وقع', 4000],
      ['A', '市长 说 渡轮 合同 已经 签署', 5000],
    ]);
    expect((await library.search('contr')).total).toBe(2);
    expect((await library.search('"ferry contract"')).total).toBe(1);
    expect((await library.search('cafe')).total).toBe(1);
    expect((await library.search('δήμαρχος')).total).toBe(1);
    expect((await library.search('البلدية')).total).toBe(1);
    expect((await library.search('渡轮')).total).toBe(1);
  });

  it('never fails on anything a user can type', async () => {
    await addTranscript('t1', 'x', [['A', 'AND OR NOT NEAR the ferry', 0]]);
    const nasty = [
      '"',
      '""',
      '"unbalanced',
      'ferry"',
      '-',
      '--',
      '- ferry',
      'AND(',
      'AND',
      'OR',
      'NOT',
      'NEAR(ferry, 2)',
      '*',
      'ferry*',
      '^ferry',
      'text:ferry',
      '(',
      ')',
      '{a b}',
      "'; DROP TABLE sentences; --",
      '🙂',
      '🙂 ferry',
      '\u0000',
      '\u0001x\u0002',
      'a'.repeat(1000),
      '  ',
      '',
      'ferry AND',
      '"ferry" OR "boat"',
      '+',
      '.',
      '…',
      'ق',
      '\\',
      '%',
      '_',
    ];
    for (const query of nasty) {
      await expect(library.search(query), query).resolves.toMatchObject({
        total: expect.any(Number) as number,
      });
    }
    expect((await library.search('AND')).total).toBe(1); // operators are ordinary words
  });

  it('deletes a transcript with everything it owns', async () => {
    await addTranscript('t1', 'x', [['A', 'the ferry', 0]]);
    await library.delete('t1');
    expect(await library.get('t1')).toBeUndefined();
    expect((await library.search('ferry')).total).toBe(0);
    await expect(library.delete('t1')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('says the same thing of a transcript that is gone, whatever is asked of it', async () => {
    const gone = {
      code: 'not_found',
      message: 'This transcript is no longer in your library.',
      details: { id: 'gone' },
    };
    const asks: [string, () => Promise<unknown>][] = [
      ['requireJob', () => library.requireJob('gone')],
      ['updateJob', () => library.updateJob('gone', { status: 'error' })],
      ['saveCompleted', () => library.saveCompleted('gone', completed([['A', 'Hello.', 0]]))],
      ['transcriptJson', () => library.transcriptJson('gone')],
      ['transcriptOpening', () => library.transcriptOpening('gone', 40)],
      ['renameSpeaker', () => library.renameSpeaker('gone', 'A', 'Mayor')],
      ['setTitle', () => library.setTitle('gone', 'New title')],
      ['setTags', () => library.setTags('gone', ['ferry'])],
      ['relink', () => library.relink('gone', '/moved/a.wav')],
      ['delete', () => library.delete('gone')],
    ];
    for (const [name, ask] of asks) {
      const error: unknown = await ask().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(VerbatimError);
      expect(error, name).toMatchObject(gone);
    }
    await addTranscript('here', 'Still here', [['A', 'Hello.', 0]]);
    expect(await library.requireJob('here')).toMatchObject({ id: 'here', title: 'Still here' });
  });
});

describe('counting matches', () => {
  it('counts exactly up to the cap and says "at least" beyond it', async () => {
    const many = Array.from(
      { length: countCap + 5 },
      (_, i) => ['A', `ferry number ${i}`, i * 10] as [string, string, number],
    );
    await addTranscript('big', 'Big', many);
    const page = await library.search('ferry ', {}, { limit: 10 });
    expect(page).toMatchObject({ total: countCap, totalIsLowerBound: true });
    const few = await library.search('"number 7"', {}, { limit: 10 });
    expect(few).toMatchObject({ total: 1, totalIsLowerBound: false });
    const filtered = await library.search('ferry ', { speaker: 'A' }, { limit: 10, offset: 10 });
    expect(filtered.hits).toHaveLength(10);
    expect(filtered.totalIsLowerBound).toBe(true);
  });
});

describe('highlighting', () => {
  it('marks whole words, the prefix being typed, and folds case and accents', () => {
    const parts = highlight('Le Café de la Mairie, café crème.', queryTerms('cafe mai'));
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(['Café', 'Mairie', 'café']);
    expect(parts.map((p) => p.text).join('')).toBe('Le Café de la Mairie, café crème.');
  });

  it('trims a very long sentence around the first match', () => {
    const text = `${'word '.repeat(200)}ferry ${'word '.repeat(200)}`;
    const parts = highlight(text, queryTerms('ferry '), 100);
    const joined = parts.map((p) => p.text).join('');
    expect(joined.startsWith('…')).toBe(true);
    expect(joined.endsWith('…')).toBe(true);
    expect(parts.some((p) => p.match && p.text === 'ferry')).toBe(true);
    expect(joined.length).toBeLessThan(110);
  });
});

describe('turning user text into an FTS5 query', () => {
  it('quotes every word and makes the last one a prefix', () => {
    expect(toFtsQuery('ferry contr')).toBe('"ferry" "contr"*');
    expect(toFtsQuery('ferry ')).toBe('"ferry"');
    expect(toFtsQuery('"ferry contract" signed')).toBe('"ferry contract" "signed"*');
    expect(toFtsQuery('AND(')).toBe('"AND"*');
    expect(toFtsQuery('AND( ')).toBe('"AND"');
    expect(toFtsQuery('-- ;')).toBeUndefined();
  });
});
