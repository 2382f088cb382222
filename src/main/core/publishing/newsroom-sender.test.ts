import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FakeClock } from '../../base/fake-clock.test-kit';
import { openDatabase } from '../library/database';
import { Library, type NewsroomPublicationRecord } from '../library/library';
import {
  completedTranscriptFromLines,
  misheardTimings,
  storeFinished,
} from '../library/completed-transcript.test-kit';
import { publishTranscript, unpublishTranscript } from './build-publication';
import { NewsroomSender, backoffDelay } from './newsroom-sender';
import { FakeArchive, revisionOf } from './newsroom-sender.test-kit';

const city = { desk: 'City', confidential: false, withAudio: false };
const backoff = { firstMs: 1_000, maxMs: 16_000 };

async function storeInterview(library: Library, id: string): Promise<void> {
  await storeFinished(
    library,
    id,
    `Interview ${id}`,
    completedTranscriptFromLines([['A', `The harbour ${id} opens in March.`, 0]], misheardTimings, {
      transcript: { id: `remote-${id}`, language_code: 'en' },
    }),
  );
}

function setUp(clock = new FakeClock(1_000_000), path = ':memory:') {
  const library = new Library(openDatabase(path), () => clock.now());
  const archive = new FakeArchive();
  const changes: NewsroomPublicationRecord[] = [];
  const sender = new NewsroomSender({
    outbox: library,
    writer: archive,
    clock,
    holder: 'sender-1',
    random: () => 1,
    backoff,
    onChange: (publication) => changes.push(publication),
  });
  return { clock, library, archive, changes, sender };
}

const senders: NewsroomSender[] = [];
afterEach(() => {
  for (const sender of senders.splice(0)) sender.dispose();
});

describe('backoffDelay', () => {
  it('doubles up to the cap, jittered between half and all of it', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, backoff, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 16000, 16000, 16000,
    ]);
    expect(backoffDelay(2, backoff, () => 0)).toBe(2000);
  });
});

describe('NewsroomSender', () => {
  it('sends the oldest first, records each revision published and empties the outbox', async () => {
    const { library, archive, changes, sender } = setUp();
    senders.push(sender);
    await storeInterview(library, 'a');
    await storeInterview(library, 'b');
    await publishTranscript(library, 'b', city);
    await publishTranscript(library, 'a', city);

    await sender.drain();

    expect(archive.applied.map((item) => item.kind === 'publish' && item.publication.transcriptId)).toEqual([
      'b',
      'a',
    ]);
    expect(await library.newsroomOutboxSize()).toBe(0);
    expect(await library.newsroomPublication('a')).toMatchObject({
      state: 'published',
      revisionPublished: 1,
    });
    expect(changes.map((change) => [change.transcriptId, change.state])).toEqual([
      ['b', 'published'],
      ['a', 'published'],
    ]);
  });

  it('backs off while the newsroom is unreachable, doubling to the cap, then sends', async () => {
    const { clock, library, archive, sender } = setUp();
    senders.push(sender);
    await storeInterview(library, 'a');
    await publishTranscript(library, 'a', city);
    archive.failNext('network', 'timeout', 'network', 'network', 'network', 'network');
    const tries: number[] = [];
    const apply = archive.apply.bind(archive);
    archive.apply = (item) => {
      tries.push(clock.now());
      return apply(item);
    };

    await sender.drain();
    expect(await library.newsroomPublication('a')).toMatchObject({ state: 'waiting' });
    // The sender wakes itself when the item falls due again.
    await clock.advance(60_000);

    const start = tries[0]!;
    expect(tries.map((at) => at - start)).toEqual([0, 1000, 3000, 7000, 15000, 31000, 47000]);
    expect(await library.newsroomPublication('a')).toMatchObject({
      state: 'published',
      revisionPublished: 1,
    });
    expect(await library.newsroomOutboxSize()).toBe(0);
  });

  it('marks a refused item failed with why and goes on with the next', async () => {
    const { library, archive, changes, sender } = setUp();
    senders.push(sender);
    await storeInterview(library, 'a');
    await storeInterview(library, 'b');
    await publishTranscript(library, 'a', city);
    await publishTranscript(library, 'b', city);
    archive.failNext('forbidden');

    await sender.drain();

    expect(await library.newsroomPublication('a')).toMatchObject({
      state: 'failed',
      error: 'The newsroom said forbidden.',
      revisionPublished: null,
    });
    expect(await library.newsroomPublication('b')).toMatchObject({ state: 'published' });
    expect(changes.map((change) => [change.transcriptId, change.state])).toEqual([
      ['a', 'failed'],
      ['b', 'published'],
    ]);
    expect(await library.newsroomOutboxSize()).toBe(0);
    // Publishing again clears the failure and sends the next revision.
    await publishTranscript(library, 'a', city);
    await sender.drain();
    expect(await library.newsroomPublication('a')).toMatchObject({
      state: 'published',
      revisionPublished: 2,
      error: null,
    });
  });

  it('sends only the newest of publishes made while one waited, and keeps waiting for it while an older one is in flight', async () => {
    const { library, archive, changes, sender } = setUp();
    senders.push(sender);
    await storeInterview(library, 'a');
    await publishTranscript(library, 'a', city);
    await publishTranscript(library, 'a', city);
    expect(await library.newsroomOutboxSize()).toBe(1);

    const held = archive.hold();
    const draining = sender.drain();
    await held.arrived;
    await publishTranscript(library, 'a', { ...city, desk: 'Politics' });
    held.letGo();
    await draining;

    expect(archive.applied.map(revisionOf)).toEqual([2, 3]);
    // Revision 2 arrived while 3 waited: the transcript still said 'waiting' until 3 arrived.
    expect(changes.map((change) => [change.state, change.revisionPublished])).toEqual([
      ['waiting', 2],
      ['published', 3],
    ]);
    expect(await library.newsroomPublication('a')).toMatchObject({
      state: 'published',
      revisionPublished: 3,
      desk: 'Politics',
    });
  });

  it('never lets two senders on one library file send the same item at once', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'verbatim-outbox-'));
    try {
      const clock = new FakeClock(1_000_000);
      const first = setUp(clock, join(folder, 'library.db'));
      const second = setUp(clock, join(folder, 'library.db'));
      senders.push(first.sender, second.sender);
      const secondSender = new NewsroomSender({
        outbox: second.library,
        writer: second.archive,
        clock,
        holder: 'sender-2',
        random: () => 1,
        backoff,
      });
      senders.push(secondSender);
      await storeInterview(first.library, 'a');
      await publishTranscript(first.library, 'a', city);

      const held = first.archive.hold();
      const firstDraining = first.sender.drain();
      await held.arrived;
      await secondSender.drain();
      expect(second.archive.applied).toEqual([]);
      held.letGo();
      await firstDraining;
      await secondSender.drain();

      expect(first.archive.applied.map(revisionOf)).toEqual([1]);
      expect(second.archive.applied).toEqual([]);
      expect(await second.library.newsroomOutboxSize()).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('takes over the item of a sender that died once its lease ran out', async () => {
    const { clock, library, archive, sender } = setUp();
    senders.push(sender);
    await storeInterview(library, 'a');
    await publishTranscript(library, 'a', city);
    // A sender that claimed the item and died: it never renews.
    expect(await library.claimNewsroomItem('dead-sender', 30_000)).toBeDefined();

    await sender.drain();
    expect(archive.applied).toEqual([]);
    await clock.advance(30_000);

    expect(archive.applied.map(revisionOf)).toEqual([1]);
    expect(await library.newsroomOutboxSize()).toBe(0);
  });

  it('ends, whatever the order of publishes, unpublishes and unreachable moments, with the archive holding each last intent and the outbox empty', async () => {
    type Step =
      | { kind: 'publish'; transcript: number }
      | { kind: 'unpublish'; transcript: number }
      | { kind: 'unreachable'; times: number }
      | { kind: 'drain' }
      | { kind: 'publishWhileSending'; transcript: number }
      | { kind: 'wait'; ms: number };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant('publish' as const), transcript: fc.nat(2) }),
      fc.record({ kind: fc.constant('unpublish' as const), transcript: fc.nat(2) }),
      fc.record({ kind: fc.constant('unreachable' as const), times: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ kind: fc.constant('drain' as const) }),
      fc.record({ kind: fc.constant('publishWhileSending' as const), transcript: fc.nat(2) }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 20_000 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 25 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (steps, jitter) => {
          const clock = new FakeClock(1_000_000);
          const library = new Library(openDatabase(':memory:'), () => clock.now());
          const archive = new FakeArchive();
          const sender = new NewsroomSender({
            outbox: library,
            writer: archive,
            clock,
            holder: 's',
            random: () => jitter,
            backoff,
          });
          try {
            const ids = ['t0', 't1', 't2'];
            for (const id of ids) await storeInterview(library, id);
            const lastIntent = new Map<string, { kind: string; revision: number }>();
            for (const s of steps) {
              if (s.kind === 'publish' || s.kind === 'unpublish') {
                const id = ids[s.transcript]!;
                const record = await (
                  s.kind === 'publish'
                    ? publishTranscript(library, id, city)
                    : unpublishTranscript(library, id)
                ).catch(() => undefined);
                if (record) lastIntent.set(id, { kind: s.kind, revision: record.revisionRequested });
                sender.wake();
              } else if (s.kind === 'publishWhileSending') {
                // A publish made while the sender has an item on its way to the archive.
                const id = ids[s.transcript]!;
                await publishTranscript(library, id, city).then((record) =>
                  lastIntent.set(id, { kind: 'publish', revision: record.revisionRequested }),
                );
                const held = archive.hold();
                const draining = sender.drain();
                await Promise.race([held.arrived, draining]);
                const record = await publishTranscript(library, id, city);
                lastIntent.set(id, { kind: 'publish', revision: record.revisionRequested });
                held.letGo();
                await draining;
              } else if (s.kind === 'unreachable')
                archive.failNext(...Array<'network'>(s.times).fill('network'));
              else if (s.kind === 'drain') await sender.drain();
              else await clock.advance(s.ms);
            }
            for (let round = 0; round < 20 && (await library.newsroomOutboxSize()) > 0; round++) {
              await clock.advance(backoff.maxMs);
              await sender.drain();
            }
            expect(await library.newsroomOutboxSize()).toBe(0);
            for (const [id, intent] of lastIntent) {
              const held = archive.held.get(id);
              expect({ kind: held?.kind, revision: held && revisionOf(held) }).toEqual(intent);
              expect((await library.newsroomPublication(id))?.state).toBe(
                intent.kind === 'publish' ? 'published' : 'unpublished',
              );
            }
          } finally {
            sender.dispose();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
