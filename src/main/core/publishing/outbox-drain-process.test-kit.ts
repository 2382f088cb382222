import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock } from '../../base/clock';
import { openDatabase } from '../library/database';
import { Library } from '../library/library';
import { NewsroomSender } from './newsroom-sender';
import { revisionOf } from './newsroom-sender.test-kit';

/**
 * Test support, run as a child process (`node --import tsx <this file> <library> <applied> <lease ms>`):
 * drains the library's newsroom outbox into an archive that appends each item it applies to a
 * file, one JSON line each (transcript, revision), taking a few milliseconds per item so the
 * test can SIGKILL it in the middle. Prints "draining" when it starts and "drained" when the
 * outbox is empty, having waited for the leases of killed runs to run out.
 */
const [libraryPath, appliedPath, lease] = process.argv.slice(2) as [string, string, string];
const leaseMs = Number(lease);
const library = new Library(openDatabase(libraryPath));
const sender = new NewsroomSender({
  outbox: library,
  clock: systemClock,
  holder: `process-${process.pid}`,
  leaseMs,
  writer: {
    async apply(item) {
      await sleep(2 + Math.random() * 6);
      const transcriptId = item.kind === 'publish' ? item.publication.transcriptId : item.transcriptId;
      appendFileSync(appliedPath, `${JSON.stringify({ transcriptId, revision: revisionOf(item) })}\n`);
    },
  },
});
process.stdout.write('draining\n');
await sender.drain();
while ((await library.newsroomOutboxSize()) > 0) {
  await sleep(leaseMs);
  await sender.drain();
}
sender.dispose();
process.stdout.write(`drained ${await library.newsroomOutboxSize()}\n`);
