import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/newsroom/local-postgres';
import { newsroomAddressText } from '../../core/newsroom/newsroom-address';
import { setUpSampleNewsroom } from '../../core/newsroom/newsroom-archive.test-kit';
import { useNewsroomServer } from '../../core/newsroom/newsroom-server.test-kit';
import {
  archiveRows,
  newestRevisions,
  newsroomRun,
  reporterEnv,
  reporterFolder,
  startNewsroomRun,
} from './newsroom-publish.test-kit';

const server = useNewsroomServer();
beforeAll(() => setUpSampleNewsroom(server()));

describe('newsroom publish, unpublish and outbox, as a reporter runs them', () => {
  it('publishes to the reporter’s only desk, then the next revision, unpublishes, and says each', async () => {
    const folder = await reporterFolder(2, 't');
    const env = reporterEnv(server(), folder, 'ana');
    const first = await newsroomRun(['publish', 't0', 't1'], env);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe(
      '"Harbour interview t0" (t0): published rev 1.\n"Harbour interview t1" (t1): published rev 1.\n',
    );
    const again = await newsroomRun(['publish', 't0', '--json'], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([
      {
        id: 't0',
        title: 'Harbour interview t0',
        state: 'published',
        revision: 2,
        reason: null,
        audioNote: null,
      },
    ]);
    expect(await archiveRows(server(), 'ana')).toEqual(
      new Map([
        ['t0', { revision: 2, sentences: 2 }],
        ['t1', { revision: 1, sentences: 3 }],
      ]),
    );
    const desk = await server().pool.query<{ desk: string }>(
      "SELECT desk FROM verbatim.published_transcripts WHERE reporter = 'ana' AND transcript_id = 't0'",
    );
    expect(desk.rows).toEqual([{ desk: 'City' }]);

    const withdrawn = await newsroomRun(['unpublish', 't1'], env);
    expect(withdrawn).toMatchObject({ code: 0, stderr: '' });
    expect(withdrawn.stdout).toBe('"Harbour interview t1" (t1): taken out of the newsroom archive.\n');
    expect([...(await archiveRows(server(), 'ana')).keys()]).toEqual(['t0']);
    const outbox = await newsroomRun(['outbox'], env);
    expect(outbox).toMatchObject({ code: 0, stdout: 'Nothing waits to be sent to the newsroom.\n' });
  });

  it('a reporter on no desk is told to ask the administrator; a desk not theirs fails with the archive’s sentence', async () => {
    const folder = await reporterFolder(1, 'desk');
    const nowhere = await newsroomRun(['publish', 'desk0'], reporterEnv(server(), folder, 'olga'));
    expect(nowhere).toMatchObject({ code: 2, stdout: '' });
    expect(nowhere.stderr).toBe(
      'verbatim: olga is on no desk of the newsroom yet: ask its administrator to add you to one, then publish again.\n',
    );
    const elsewhere = await newsroomRun(
      ['publish', 'desk0', '--desk', 'Politics'],
      reporterEnv(server(), folder, 'ana'),
    );
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stdout).toMatch(/^"Harbour interview desk0" \(desk0\): failed: .+\.\n$/);
    expect(await folder.library.newsroomOutboxSize()).toBe(0);
    expect(await folder.library.newsroomPublication('desk0')).toMatchObject({ state: 'failed' });
  });

  it('with the network gone the publish waits in the outbox, and is sent once the newsroom is back', async () => {
    const folder = await reporterFolder(3, 'net');
    const closedPort = await freePort();
    const gone = reporterEnv(
      server(),
      folder,
      'ana',
      newsroomAddressText({ ...server().admin, user: 'ana', port: closedPort }),
    );
    const offline = await newsroomRun(['publish', 'net0', 'net1', '--desk', 'City'], gone);
    expect(offline).toMatchObject({ code: 0, stderr: '' });
    const lines = offline.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines)
      expect(line).toMatch(
        /^"Harbour interview net\d" \(net\d\): waiting to publish \(newsroom unreachable: .+\); `newsroom outbox --send` sends it\.$/,
      );
    const waiting = await newsroomRun(['outbox', '--json'], gone);
    expect(JSON.parse(waiting.stdout)).toMatchObject([
      { transcriptId: 'net0', kind: 'publish', revision: 1, attempts: 1 },
      { transcriptId: 'net1', kind: 'publish', revision: 1, attempts: 1 },
    ]);
    // Still gone: another publish queues its own and waits with the rest.
    expect((await newsroomRun(['publish', 'net2', '--desk', 'City'], gone)).code).toBe(0);
    expect(await folder.library.newsroomOutboxSize()).toBe(3);

    const back = await newsroomRun(['outbox', '--send'], reporterEnv(server(), folder, 'ana'));
    expect(back).toMatchObject({ code: 0, stdout: 'Nothing waits to be sent to the newsroom.\n' });
    const held = await archiveRows(server(), 'ana');
    expect(folder.ids.map((id) => held.get(id))).toEqual([
      { revision: 1, sentences: 2 },
      { revision: 1, sentences: 3 },
      { revision: 1, sentences: 4 },
    ]);
  });

  it('the server stopped mid-publish: what it did not take waits, and is published after it restarts', async () => {
    const folder = await reporterFolder(30, 'stop');
    const env = reporterEnv(server(), folder, 'dev');
    const run = startNewsroomRun(['publish', ...folder.ids, '--desk', 'Politics'], env);
    // Stopped once the archive has taken the first of them, while the rest are on their way.
    for (;;) {
      const { rows } = await server().pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM verbatim.published_transcripts WHERE reporter = 'dev'",
      );
      if (Number(rows[0]?.n) > 0) break;
      await new Promise((next) => setImmediate(next));
    }
    await server().stop();
    const stopped = await run.finished;
    expect(stopped).toMatchObject({ code: 0, stderr: '' });
    expect(stopped.stdout).toContain('waiting to publish (newsroom unreachable: ');
    expect(await folder.library.newsroomOutboxSize()).toBeGreaterThan(0);

    await server().restart();
    const sent = await newsroomRun(['outbox', '--send'], env);
    expect(sent).toMatchObject({ code: 0, stdout: 'Nothing waits to be sent to the newsroom.\n' });
    const held = await archiveRows(server(), 'dev');
    expect(held).toEqual(
      new Map(folder.ids.map((id) => [id, { revision: 1, sentences: folder.sentencesOf(id) }])),
    );
    expect(await newestRevisions(folder)).toEqual(new Map(folder.ids.map((id) => [id, 1])));
    for (const id of folder.ids)
      expect(await folder.library.newsroomPublication(id)).toMatchObject({
        state: 'published',
        revisionPublished: 1,
      });
  }, 60_000);
});
