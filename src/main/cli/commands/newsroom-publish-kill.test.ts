import { beforeAll, describe, expect, it } from 'vitest';
import { setUpSampleNewsroom } from '../../core/newsroom/newsroom-archive.test-kit';
import { useNewsroomServer } from '../../core/newsroom/newsroom-server.test-kit';
import {
  archiveRows,
  newestRevisions,
  newsroomRun,
  reporterEnv,
  reporterFolder,
  startNewsroomRun,
  type ReporterFolder,
} from './newsroom-publish.test-kit';
import type { CliRun } from '../cli-process.test-kit';
import { spawn } from 'node:child_process';
import { senderHolderName } from '../../core/publishing/newsroom-publisher';

/**
 * Publishing is offline first and crash-safe (issue #35, point 5), against a real PostgreSQL and
 * through real command-line processes: whatever moment a publish is killed at, or however two
 * of the reporter's processes overlap, the archive ends with exactly the newest revision of
 * each transcript, no sentence twice, and the outbox empty.
 */
const server = useNewsroomServer();
beforeAll(() => setUpSampleNewsroom(server()));

async function expectExactlyTheNewest(folder: ReporterFolder, reporter: string): Promise<void> {
  expect(await folder.library.newsroomOutboxSize()).toBe(0);
  const newest = await newestRevisions(folder);
  const held = await archiveRows(server(), reporter);
  expect(held).toEqual(
    new Map([...newest].map(([id, revision]) => [id, { revision, sentences: folder.sentencesOf(id) }])),
  );
  for (const id of newest.keys())
    expect(await folder.library.newsroomPublication(id)).toMatchObject({ state: 'published' });
}

describe('newsroom publish under SIGKILL and overlapping processes', () => {
  it('killed at random moments, each next run sends what the killed one left, once', async () => {
    const folder = await reporterFolder(12, 'kill');
    const env = reporterEnv(server(), folder, 'ben');
    let killed = 0;
    for (let run = 0; run < 6; run++) {
      const before = (await folder.library.newsroomPublication(folder.ids[0]!))?.revisionRequested ?? 0;
      const publish = startNewsroomRun(['publish', ...folder.ids], env);
      let ended: CliRun | undefined;
      void publish.finished.then((result) => (ended = result));
      // Once it has queued its first transcript, at a random moment of queueing the rest or sending them.
      while (
        !ended &&
        (await folder.library.newsroomPublication(folder.ids[0]!))?.revisionRequested === before
      )
        await new Promise((next) => setTimeout(next, 5));
      await new Promise((next) => setTimeout(next, Math.random() * 600));
      if (!ended && publish.child.kill('SIGKILL')) killed++;
      await publish.finished;
      // Killed or done, the next run (a restart) drains what it left, at once: the dead one's claim is freed.
      const restart = await newsroomRun(['outbox', '--send'], env);
      expect(restart, `run ${run}`).toMatchObject({
        code: 0,
        stdout: 'Nothing waits to be sent to the newsroom.\n',
      });
      await expectExactlyTheNewest(folder, 'ben');
    }
    // Most runs are killed mid-way, or the test proved nothing about a restart.
    expect(killed).toBeGreaterThanOrEqual(3);
    expect(Math.min(...(await newestRevisions(folder)).values())).toBeGreaterThanOrEqual(1);
  }, 180_000);

  it('an item a killed process had claimed is sent by the next run at once, not after its claim runs out', async () => {
    const folder = await reporterFolder(1, 'claimed');
    const env = reporterEnv(server(), folder, 'ben');
    const offline = reporterEnv(
      server(),
      folder,
      'ben',
      server().urlFor('ben').replace(`:${server().port}/`, ':1/'),
    );
    expect((await newsroomRun(['publish', 'claimed0', '--desk', 'City'], offline)).code).toBe(0);
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((exited) => dead.on('exit', exited));
    // Claimed for a minute by a process of this machine that is gone, as a SIGKILL mid-send leaves it.
    await folder.library.retryNewsroomItemsNow();
    expect(await folder.library.claimNewsroomItem(senderHolderName(dead.pid), 60_000)).toBeDefined();
    const restart = await newsroomRun(['outbox', '--send'], env);
    expect(restart).toMatchObject({ code: 0, stdout: 'Nothing waits to be sent to the newsroom.\n' });
    await expectExactlyTheNewest(folder, 'ben');
  });

  it('two of the reporter’s processes publishing the same and different transcripts at once lose nothing and apply nothing twice', async () => {
    const folder = await reporterFolder(16, 'pair');
    const env = reporterEnv(server(), folder, 'ana');
    const first = folder.ids.slice(0, 10);
    const second = folder.ids.slice(6);
    for (let round = 0; round < 2; round++) {
      const [one, two] = await Promise.all([
        newsroomRun(['publish', ...first], env),
        newsroomRun(['publish', ...second], env),
      ]);
      expect(one).toMatchObject({ code: 0, stderr: '' });
      expect(two).toMatchObject({ code: 0, stderr: '' });
      // Whatever one process left waiting behind the other's claim is sent by the next.
      await newsroomRun(['outbox', '--send'], env);
      await expectExactlyTheNewest(folder, 'ana');
    }
    const newest = await newestRevisions(folder);
    // The shared ones were published by both processes in both rounds: four revisions.
    for (const id of folder.ids.slice(6, 10)) expect(newest.get(id)).toBe(4);
    for (const id of [...folder.ids.slice(0, 6), ...folder.ids.slice(10)]) expect(newest.get(id)).toBe(2);
  }, 120_000);
});
