import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CollaborationNotice } from '../../../shared/collaboration-notice';
import { openDatabase } from '../library/database';
import { NoticeStore, readNoticesKept } from '../library/notice-store';
import { Notices, type NoticesChange } from './notices';

function notices(now = () => 1_000) {
  const service = new Notices(new NoticeStore(openDatabase(':memory:'), now));
  const changes: NoticesChange[] = [];
  service.changed.subscribe((change) => changes.push(change));
  return { service, changes };
}

function commentNotice(id: string, at = 10): CollaborationNotice {
  return {
    kind: 'comment',
    by: 'cleo',
    text: `cleo commented on quote 2 of “Harbour” (${id}).`,
    target: { kind: 'story', storyKey: 'ana/3', quote: 2 },
    key: `comment:${id}`,
    at,
  };
}

describe('Notices', () => {
  it('keeps a notice once however often it is read, and tells the windows how many are unread', async () => {
    const { service, changes } = notices();
    expect(await service.add(commentNotice('a'))).toMatchObject({
      key: 'comment:a',
      readAt: null,
      receivedAt: 1_000,
    });
    expect(await service.add(commentNotice('a'))).toBeUndefined();
    await service.sink(commentNotice('b', 20));
    expect(changes.map((change) => [change.unread, change.added?.key])).toEqual([
      [1, 'comment:a'],
      [2, 'comment:b'],
    ]);
    expect((await service.list()).map((notice) => notice.key)).toEqual(['comment:b', 'comment:a']);
    expect((await service.list())[1]?.target).toEqual({ kind: 'story', storyKey: 'ana/3', quote: 2 });
  });

  it('marks some or all read, and says nothing when nothing changed', async () => {
    const { service, changes } = notices();
    const first = await service.add(commentNotice('a'));
    await service.add(commentNotice('b'));
    await service.add(commentNotice('c'));
    expect(await service.markRead([first!.id])).toBe(1);
    expect(await service.unreadCount()).toBe(2);
    expect(await service.markRead([first!.id])).toBe(0);
    expect(await service.markRead()).toBe(2);
    expect(await service.unreadCount()).toBe(0);
    expect(changes.slice(3).map((change) => change.unread)).toEqual([2, 0]);
  });

  it('refuses a malformed notice in words, a fault of ours', async () => {
    const { service } = notices();
    await expect(service.add({ ...commentNotice('a'), text: '' })).rejects.toThrow(
      'A notice could not be kept',
    );
  });

  it('keeps every unread notice and the newest read ones up to the limit', async () => {
    const { service } = notices();
    for (let index = 0; index < readNoticesKept + 20; index++)
      await service.add(commentNotice(`n${index}`, index));
    await service.markRead();
    await service.add(commentNotice('late', 100_000));
    await service.markRead([]);
    const kept = await service.list(10_000);
    expect(kept).toHaveLength(readNoticesKept + 1);
    expect(kept.some((notice) => notice.key === 'comment:n0')).toBe(false);
    expect(kept[0]).toMatchObject({ key: 'comment:late', readAt: null });
  });

  it('counts as unread exactly the notices added and not yet marked, whatever the order (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ add: fc.integer({ min: 0, max: 9 }) }),
            fc.record({ read: fc.integer({ min: 0, max: 9 }) }),
            fc.constant({ readAll: true }),
          ),
          { maxLength: 40 },
        ),
        async (steps) => {
          const { service } = notices();
          const ids = new Map<number, number>();
          const unread = new Set<number>();
          for (const step of steps) {
            if ('add' in step) {
              const added = await service.add(commentNotice(String(step.add)));
              if (added) {
                ids.set(step.add, added.id);
                unread.add(step.add);
              }
            } else if ('read' in step) {
              const id = ids.get(step.read);
              if (id !== undefined) await service.markRead([id]);
              unread.delete(step.read);
            } else {
              await service.markRead();
              unread.clear();
            }
          }
          expect(await service.unreadCount()).toBe(unread.size);
        },
      ),
      { numRuns: 100 },
    );
  });
});
