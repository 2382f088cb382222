import { describe, expect, it } from 'vitest';
import { PlaybackQueue, WRITE_MS } from './playback-queue';
import { bytesForMs } from './pcm';
import { MemorySink } from './voice-session.test-kit';

const writeBytes = bytesForMs(WRITE_MS);

describe('PlaybackQueue', () => {
  it('writes queued audio to the sink in small pieces, in order', async () => {
    const sink = new MemorySink();
    const changes: boolean[] = [];
    const queue = new PlaybackQueue(sink, (playing) => changes.push(playing));
    const audio = Buffer.from(Array.from({ length: 2400 }, (_, i) => i % 256));
    queue.enqueue(audio);
    await expect.poll(() => queue.playing).toBe(false);
    expect(sink.written.every((piece) => piece.length <= writeBytes)).toBe(true);
    expect(Buffer.concat(sink.written)).toEqual(audio);
    expect(changes).toEqual([true, false]);
  });

  it('waits for the device to drain when it is full (backpressure)', async () => {
    const sink = new MemorySink(writeBytes * 2);
    const queue = new PlaybackQueue(sink);
    queue.enqueue(Buffer.alloc(writeBytes * 10));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sink.bytes).toBe(writeBytes * 2);
    expect(queue.pendingBytes).toBe(writeBytes * 8);
    sink.play();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sink.bytes).toBe(writeBytes * 4);
    expect(queue.playing).toBe(true);
  });

  it('flushes everything at once on barge-in and plays what comes after', async () => {
    const sink = new MemorySink(writeBytes);
    const queue = new PlaybackQueue(sink);
    queue.enqueue(Buffer.alloc(writeBytes * 10, 1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    queue.flush();
    expect(queue.pendingBytes).toBe(0);
    expect(queue.playing).toBe(false);
    expect(sink.flushes).toBe(1);
    sink.play(); // the old write loop wakes up and must not write stale audio
    queue.enqueue(Buffer.alloc(writeBytes, 2));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const afterFlush = sink.written.slice(1);
    expect(afterFlush).toEqual([Buffer.alloc(writeBytes, 2)]);
  });
});
