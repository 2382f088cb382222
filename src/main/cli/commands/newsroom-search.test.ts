import { beforeAll, describe, expect, it } from 'vitest';
import { NewsroomArchive } from '../../core/newsroom/newsroom-archive';
import {
  connectionAs,
  passwordOf,
  sampleSentences,
  samplePublication,
  setUpSampleNewsroom,
} from '../../core/newsroom/newsroom-archive.test-kit';
import { useNewsroomServer } from '../../core/newsroom/newsroom-server.test-kit';
import type { Publication } from '../../core/newsroom/publication';
import { runCliProcess, type CliRun } from '../cli-process.test-kit';

/**
 * `newsroom search` and `newsroom open` (issue #35, point 6), through a real child process with
 * piped output, as ben (a City reporter): ana is on City too, dev on Politics.
 */
const server = useNewsroomServer();

function newsroomAs(user: string, args: string[]): Promise<CliRun> {
  return runCliProcess(['newsroom', ...args], {
    VERBATIM_NEWSROOM_URL: server().urlFor(user),
    VERBATIM_NEWSROOM_PASSWORD: passwordOf(user),
  });
}

function spoken(texts: string[]): Publication['sentences'] {
  return texts.map((text, position) => ({
    ...sampleSentences(1, text)[0]!,
    position,
    startMs: position * 3000,
    text,
  }));
}

const longSentence = `${'the pilot spoke of tides and of ships and of the night shift '.repeat(6)}`;

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  for (const [user, publication] of [
    [
      'ana',
      samplePublication('harbour', 1, {
        title: 'The harbour master',
        recordedAt: new Date(2025, 3, 14, 10).getTime(),
        tags: ['port'],
        sentences: spoken(['Good morning', 'I run the harbour at night']),
      }),
    ],
    ['ana', samplePublication('source', 1, { confidential: true, sentences: spoken(['my harbour source']) })],
    [
      'ben',
      samplePublication('council', 1, {
        title: 'Council vote',
        recordedAt: new Date(2024, 0, 10, 15).getTime(),
        sentences: spoken(['The council voted on the harbour budget']),
      }),
    ],
    [
      'dev',
      samplePublication('minister', 1, { desk: 'Politics', sentences: spoken(['the harbour minister']) }),
    ],
    [
      'ana',
      samplePublication('long', 1, {
        title: 'A long night',
        tags: ['long'],
        sentences: spoken(Array.from({ length: 300 }, () => longSentence)),
      }),
    ],
  ] as const) {
    const connection = connectionAs(server(), user);
    try {
      await new NewsroomArchive(connection).apply({ kind: 'publish', publication });
    } finally {
      await connection.close();
    }
  }
});

describe('newsroom search', () => {
  it('prints each hit with its reporter, desk, date, title, time and speaker, the matched words marked', async () => {
    const run = await newsroomAs('ben', ['search', 'run', 'the', 'harb', '--tag', 'port']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      'ana/harbour (City, 2025-04-14) The harbour master [00:00:03] Harbour master: I **run** **the** **harbour** at night\n',
    );
  });

  it('filters by desk, reporter and days, and prints JSON with --json', async () => {
    const json = async (args: string[]) => {
      const run = await newsroomAs('ben', ['search', 'harbour', '--json', ...args]);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      return (JSON.parse(run.stdout) as { hits: { reporter: string; transcriptId: string }[] }).hits
        .map((hit) => `${hit.reporter}/${hit.transcriptId}`)
        .filter((hit, index, all) => all.indexOf(hit) === index)
        .sort();
    };
    expect(await json([])).toEqual(['ana/harbour', 'ben/council']);
    expect(await json(['--reporter', 'ben'])).toEqual(['ben/council']);
    expect(await json(['--desk', 'Politics'])).toEqual([]);
    expect(await json(['--from', '2024-01-10', '--to', '2024-01-10'])).toEqual(['ben/council']);
    expect(await json(['--from', '2024-01-11', '--to', '2025-04-14', '--tag', 'port'])).toEqual([
      'ana/harbour',
    ]);
  });

  it('says when nothing is found, and refuses a day it cannot read', async () => {
    expect(await newsroomAs('ben', ['search', 'lighthouse'])).toMatchObject({
      code: 0,
      stdout: 'Nothing found in the newsroom.\n',
    });
    const run = await newsroomAs('ben', ['search', 'harbour', '--from', '14/04/2025']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--from takes a day as YYYY-MM-DD, such as 2025-04-14');
  });
});

describe('newsroom open', () => {
  it("prints a colleague's published transcript whole, with its speakers' names and highlights", async () => {
    const run = await newsroomAs('ben', ['open', 'ana/harbour']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      [
        'The harbour master',
        'Recorded 2025-04-14 by ana, published to City, revision 1.',
        'Tags: port.',
        '',
        '[00:00:00] Harbour master: Good morning',
        '[00:00:03] Harbour master: I run the harbour at night',
        '',
        'Highlights:',
        '[00:00:00] quote: revision (from revision 1)',
        '',
      ].join('\n'),
    );
  });

  it('one the reporter may not see is not found, as one that does not exist', async () => {
    for (const ref of ['ana/source', 'dev/minister', 'ana/nothing-here']) {
      const run = await newsroomAs('ben', ['open', ref]);
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr).toBe(
        `verbatim: There is no transcript ${ref} in the newsroom that you can see: check the reporter and the id (as newsroom search shows them).\n`,
      );
    }
  });

  it('prints more than 64 KiB of JSON whole through a pipe', async () => {
    const run = await newsroomAs('ben', ['open', 'ana/long', '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.length).toBeGreaterThan(64 * 1024);
    const transcript = JSON.parse(run.stdout) as { sentences: { text: string }[] };
    expect(transcript.sentences).toHaveLength(300);
    expect(transcript.sentences.every((sentence) => sentence.text === longSentence)).toBe(true);
  });
});
