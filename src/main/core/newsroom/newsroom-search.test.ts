import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerbatimError } from '../../../shared/errors';
import type { NewsroomSearchQuery } from '../../../shared/newsroom-search';
import { NewsroomArchive } from './newsroom-archive';
import {
  connectionAs,
  sampleSentences,
  samplePublication,
  setUpSampleNewsroom,
  sqlAs,
} from './newsroom-archive.test-kit';
import type { NewsroomConnection } from './newsroom-connection';
import { openNewsroomTranscript, searchNewsroom } from './newsroom-search';
import { useNewsroomServer } from './newsroom-server.test-kit';
import type { Publication } from './publication';

/**
 * Newsroom search (issue #35, point 6) against a real PostgreSQL, each reporter logged in as
 * themselves. City: ana, ben (reporters), cleo (editor); Politics: dev; olga is on no desk.
 */
const server = useNewsroomServer();
const connections = new Map<string, NewsroomConnection>();

function as(user: string): NewsroomConnection {
  let connection = connections.get(user);
  if (!connection) connections.set(user, (connection = connectionAs(server(), user)));
  return connection;
}

function spoken(texts: string[]): Publication['sentences'] {
  return texts.map((text, position) => ({ ...sampleSentences(1, text)[0]!, position, text }));
}

async function publish(user: string, publication: Publication): Promise<void> {
  await new NewsroomArchive(as(user)).apply({ kind: 'publish', publication });
}

const april2025 = Date.UTC(2025, 3, 14, 9, 30);
const january2024 = Date.UTC(2024, 0, 10, 15, 0);

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  await publish(
    'ana',
    samplePublication('harbour', 1, {
      title: 'The harbour master',
      recordedAt: april2025,
      tags: ['port'],
      speakers: [
        { label: 'A', name: 'Harbour Master' },
        { label: 'B', name: null },
      ],
      sentences: spoken([
        'I interviewed the harbour master yesterday',
        'The ferry was late again',
        'Harbours close at night, said the fish-market',
        'They typed drop table students; into the form',
      ]),
    }),
  );
  await publish(
    'ana',
    samplePublication('source', 1, {
      title: 'My source',
      confidential: true,
      sentences: spoken(['the harbour master is my source']),
    }),
  );
  await publish(
    'ben',
    samplePublication('council', 1, {
      title: 'Council vote',
      recordedAt: january2024,
      tags: ['council'],
      sentences: spoken(['The council voted on the harbour budget']),
    }),
  );
  await publish(
    'dev',
    samplePublication('minister', 1, {
      desk: 'Politics',
      title: 'The minister',
      sentences: spoken(['The minister visited the harbour master']),
    }),
  );
});
afterAll(async () => {
  for (const connection of connections.values()) await connection.close();
});

/** The hits of `query` for `user`, as "reporter/transcript#position". */
async function found(user: string, query: NewsroomSearchQuery): Promise<string[]> {
  const page = await searchNewsroom(as(user), query);
  return page.hits.map((hit) => `${hit.reporter}/${hit.transcriptId}#${hit.sentence.position}`).sort();
}

/** The words of each hit that are marked as matched. */
async function marked(user: string, text: string): Promise<string[][]> {
  const page = await searchNewsroom(as(user), { text });
  return page.hits.map((hit) => hit.matches.map((match) => hit.sentence.text.slice(match.start, match.end)));
}

describe('searchNewsroom', () => {
  it('finds a quoted phrase, and only where its words come in that order', async () => {
    expect(await found('ben', { text: '"harbour master"' })).toEqual(['ana/harbour#0']);
    expect(await found('ben', { text: '"master harbour"' })).toEqual([]);
  });

  it('finds either word with OR, and leaves out a -word', async () => {
    expect(await found('ben', { text: 'ferry OR budget' })).toEqual(['ana/harbour#1', 'ben/council#0']);
    expect(await found('ben', { text: 'harbour -master' })).toEqual(['ben/council#0']);
  });

  it.each([
    ['f', ['ana/harbour#1', 'ana/harbour#2', 'ana/harbour#3']],
    ['fe', ['ana/harbour#1']],
    ['fer', ['ana/harbour#1']],
    ['the harb', ['ana/harbour#0', 'ana/harbour#2', 'ben/council#0']],
    ['ferry OR bud', ['ana/harbour#1', 'ben/council#0']],
    ['"the harbour" mas', ['ana/harbour#0']],
  ])('matches the last word typed as a prefix: %j', async (text, expected) => {
    expect(await found('ben', { text })).toEqual(expected);
  });

  it('marks the matched words, case folded, accents kept, prefixes and hyphenated parts included', async () => {
    expect(await marked('ben', 'the harb')).toEqual(
      expect.arrayContaining([
        ['the', 'harbour'],
        ['Harbours', 'the'],
        ['The', 'the', 'harbour'],
      ]),
    );
    expect(await marked('ben', 'market')).toEqual([['market']]);
    expect(await marked('ben', '"harbour master" -ferry')).toEqual([['harbour', 'master']]);
  });

  it('filters by desk, reporter, speaker (label or name), tag and recording date', async () => {
    expect(await found('cleo', { text: 'harbour', desk: 'City' })).toEqual([
      'ana/harbour#0',
      'ana/harbour#2',
      'ana/source#0',
      'ben/council#0',
    ]);
    expect(await found('cleo', { text: 'harbour', reporter: 'ben' })).toEqual(['ben/council#0']);
    expect(await found('ben', { text: 'harbour', speaker: 'harbour master' })).toEqual([
      'ana/harbour#0',
      'ana/harbour#2',
      'ben/council#0',
    ]);
    expect(await found('ben', { text: 'harbour', speaker: 'B' })).toEqual([]);
    expect(await found('ben', { text: 'harbour', tag: 'council' })).toEqual(['ben/council#0']);
    expect(await found('ben', { text: 'harbour', from: Date.UTC(2025, 0, 1) })).toEqual([
      'ana/harbour#0',
      'ana/harbour#2',
    ]);
    expect(await found('ben', { text: 'harbour', to: Date.UTC(2025, 0, 1) })).toEqual(['ben/council#0']);
  });

  it('ranks by relevance, then the newest recording, and pages with a cursor', async () => {
    const first = await searchNewsroom(as('ben'), { text: '"harbour" OR ferry', limit: 2 });
    expect(first).toMatchObject({ total: 3, totalCapped: false });
    expect(first.nextCursor).not.toBeNull();
    const second = await searchNewsroom(as('ben'), {
      text: '"harbour" OR ferry',
      limit: 2,
      cursor: first.nextCursor!,
    });
    expect(second.nextCursor).toBeNull();
    const all = [...first.hits, ...second.hits].map((hit) => `${hit.transcriptId}#${hit.sentence.position}`);
    expect(all).toHaveLength(3);
    expect(new Set(all).size).toBe(3);
    // Equal relevance: the 2025 recording before the 2024 one.
    expect(all.indexOf('harbour#0')).toBeLessThan(all.indexOf('council#0'));
    expect(first.hits[0]?.desk).toBe('City');
  });

  it('counts up to 200 matches ("200+" past them) and ranks the newest 200: an older, more relevant one waits for a narrower search', async () => {
    // 150 sentences saying "quay" three times in 2023, 250 saying it once in 2026.
    await publish(
      'ana',
      samplePublication('quays-2023', 1, {
        recordedAt: Date.UTC(2023, 5, 1),
        sentences: sampleSentences(150, 'quay quay quay'),
      }),
    );
    await publish(
      'ana',
      samplePublication('quays-2026', 1, {
        recordedAt: Date.UTC(2026, 5, 1),
        sentences: sampleSentences(250, 'the quay'),
      }),
    );
    const pages = [];
    let cursor: string | undefined;
    do {
      const page = await searchNewsroom(as('ben'), {
        text: 'quay ',
        limit: 50,
        ...(cursor ? { cursor } : {}),
      });
      pages.push(page);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages.map((page) => [page.total, page.totalCapped])).toEqual(Array(4).fill([200, true]));
    const transcripts = new Set(pages.flatMap((page) => page.hits.map((hit) => hit.transcriptId)));
    expect({ hits: pages.flatMap((page) => page.hits).length, transcripts: [...transcripts] }).toEqual({
      hits: 200,
      transcripts: ['quays-2026'],
    });
    // A date filter reaches back: the 2023 sentences, each saying it three times, rank first.
    const older = await searchNewsroom(as('ben'), { text: 'quay ', to: Date.UTC(2024, 0, 1), limit: 5 });
    expect(older).toMatchObject({ total: 150, totalCapped: false });
    expect(older.hits.map((hit) => hit.transcriptId)).toEqual(Array(5).fill('quays-2023'));
  });

  it("never shows another desk's, or a colleague's confidential, sentences", async () => {
    // "harbour", typed last, is also a prefix: "Harbours" is found too.
    expect(await found('ben', { text: 'harbour' })).toEqual([
      'ana/harbour#0',
      'ana/harbour#2',
      'ben/council#0',
    ]);
    expect(await found('ana', { text: 'harbour' })).toEqual([
      'ana/harbour#0',
      'ana/harbour#2',
      'ana/source#0',
      'ben/council#0',
    ]);
    expect(await found('dev', { text: 'harbour' })).toEqual(['dev/minister#0']);
    expect(await found('olga', { text: 'harbour' })).toEqual([]);
    expect(await found('ben', { text: 'harbour', desk: 'Politics' })).toEqual([]);
  });

  it('a transcript made confidential afterwards leaves colleagues’ searches at once', async () => {
    await publish('ana', samplePublication('turned', 1, { sentences: spoken(['lighthouse keeper']) }));
    expect(await found('ben', { text: 'lighthouse' })).toEqual(['ana/turned#0']);
    const ana = await sqlAs(server(), 'ana');
    try {
      await ana.query(
        "UPDATE verbatim.published_transcripts SET confidential = true WHERE transcript_id = 'turned'",
      );
    } finally {
      await ana.end();
    }
    expect(await found('ben', { text: 'lighthouse' })).toEqual([]);
    expect(await found('cleo', { text: 'lighthouse' })).toEqual(['ana/turned#0']);
  });

  it('a sentence cannot claim another desk or visibility than its transcript', async () => {
    const ana = await sqlAs(server(), 'ana');
    try {
      await ana.query(
        "UPDATE verbatim.published_sentences SET desk = 'Politics', confidential = false WHERE transcript_id = 'source'",
      );
    } finally {
      await ana.end();
    }
    for (const user of ['ben', 'dev'])
      expect(await searchNewsroom(as(user), { text: 'source' })).toMatchObject({ hits: [], total: 0 });
    const dev = await sqlAs(server(), 'dev');
    try {
      const read = await dev.query(
        "SELECT text FROM verbatim.published_sentences WHERE transcript_id = 'source'",
      );
      expect(read.rows).toEqual([]);
    } finally {
      await dev.end();
    }
  });

  it.each(['', '   ', '!!! ... ---', '"', '-', 'or', '"" OR', '()', ':*', "'", '\\', '&|!<->'])(
    'what asks for no word finds nothing, without an error: %j',
    async (text) => {
      expect(await searchNewsroom(as('ben'), { text })).toMatchObject({ hits: [], total: 0 });
    },
  );

  it('SQL-looking input is only words to look for', async () => {
    const attempts = [
      "'; DROP TABLE verbatim.published_sentences; --",
      "drop table students'); --",
      "x' OR '1'='1",
      "harbour':* | 'a",
    ];
    for (const text of attempts) await searchNewsroom(as('ben'), { text });
    expect(await found('ben', { text: 'drop table students' })).toEqual(['ana/harbour#3']);
    expect(await found('ben', { text: "drop table students'); --" })).toEqual(['ana/harbour#3']);
  });

  it('refuses a malformed query in words', async () => {
    await expect(searchNewsroom(as('ben'), { text: 'x', limit: 500 })).rejects.toThrow(
      /newsroom search cannot be run \(limit/,
    );
    await expect(searchNewsroom(as('ben'), { text: 'x', cursor: 'nonsense' })).rejects.toThrow(
      'This page of newsroom results is no longer valid: search again from the first page.',
    );
  });

  it('shows a random newsroom to each member exactly as its desks and confidentiality say', async () => {
    const members = { ana: 'City', ben: 'City', cleo: 'City', dev: 'Politics', olga: null } as const;
    const editors = new Set(['cleo']);
    const authors = ['ana', 'ben', 'dev'] as const;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ author: fc.constantFrom(...authors), confidential: fc.boolean() }), {
          minLength: 1,
          maxLength: 5,
        }),
        async (transcripts) => {
          const word = `zebra${++run}`;
          for (const [index, { author, confidential }] of transcripts.entries())
            await publish(
              author,
              samplePublication(`${word}-${index}`, 1, {
                desk: members[author],
                confidential,
                sentences: spoken([`a ${word} was seen`]),
              }),
            );
          for (const [user, desk] of Object.entries(members)) {
            const expected = transcripts
              .map((transcript, index) => ({ ...transcript, id: `${transcript.author}/${word}-${index}#0` }))
              .filter(
                ({ author, confidential }) =>
                  author === user || (desk === members[author] && (!confidential || editors.has(user))),
              )
              .map(({ id }) => id)
              .sort();
            expect({ user, hits: await found(user, { text: word }) }).toEqual({ user, hits: expected });
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe('openNewsroomTranscript', () => {
  it('opens a colleague’s published transcript whole: sentences, speakers, highlights, tags', async () => {
    const transcript = await openNewsroomTranscript(as('ben'), 'ana', 'harbour');
    expect(transcript).toMatchObject({
      reporter: 'ana',
      transcriptId: 'harbour',
      desk: 'City',
      title: 'The harbour master',
      recordedAt: april2025,
      tags: ['port'],
      speakers: [
        { label: 'A', name: 'Harbour Master' },
        { label: 'B', name: null },
      ],
      hasAudio: false,
      highlights: [{ label: 'quote', note: 'from revision 1' }],
    });
    expect(transcript.sentences.map((sentence) => sentence.text)).toEqual([
      'I interviewed the harbour master yesterday',
      'The ferry was late again',
      'Harbours close at night, said the fish-market',
      'They typed drop table students; into the form',
    ]);
  });

  it('one the reporter may not see is not found, worded exactly as one that does not exist', async () => {
    const refusal = (reporter: string, id: string) =>
      openNewsroomTranscript(as('ben'), reporter, id).then(
        () => 'opened',
        (error: unknown) => (error as VerbatimError).code,
      );
    expect(await refusal('ana', 'source')).toBe('not_found');
    expect(await refusal('dev', 'minister')).toBe('not_found');
    expect(await refusal('ana', 'never-published')).toBe('not_found');
    await expect(openNewsroomTranscript(as('ben'), 'ana', 'source')).rejects.toThrow(
      'There is no transcript ana/source in the newsroom that you can see: check the reporter and the id (as newsroom search shows them).',
    );
    expect((await openNewsroomTranscript(as('cleo'), 'ana', 'source')).title).toBe('My source');
  });
});
