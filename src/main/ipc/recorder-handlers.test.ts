import { copyFileSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Highlight } from '../../shared/highlights';
import type { Recording } from '../../shared/recording';
import { startIpcTestbed, type IpcTestbed } from './ipc-testbed.test-kit';
import { recordingOptions } from './recorder-handlers';

const fixtures = join(import.meta.dirname, '../../../test/fixtures');

let testbed: IpcTestbed;
beforeEach(async () => {
  testbed = await startIpcTestbed(200);
});
afterEach(() => testbed.close());

/** A finished recording in the library: a fixture copied where the recorder would have written it. */
async function recorded(fixture: string, channels: 1 | 2): Promise<Recording> {
  const path = join(testbed.services.appInfo.dataDir, fixture);
  copyFileSync(join(fixtures, fixture), path);
  const { recordings } = testbed.services.core;
  const started = await recordings.start(path, { sampleRate: 16_000, channels });
  return recordings.finish(started.id, 10_000);
}

describe('recordings.transcribe', () => {
  it('sends a recording with its preset, links it, and turns its marks into highlights once transcribed', async () => {
    const recording = await recorded('press-statement.wav', 1);
    testbed.services.recordingMarks.add(recording.id, 3000, 'harbour');
    const { transcriptId } = await testbed.call<{ transcriptId: string }>('recordings.transcribe', {
      id: recording.id,
      preset: 'Two-person interview',
    });
    const job = await testbed.services.core.library.get(transcriptId);
    expect(job).toMatchObject({ audioPath: recording.path });
    expect(job?.options).toMatchObject({ speaker_labels: true, speakers_expected: 2 });
    const [listed] = await testbed.call<Recording[]>('recordings.list');
    expect(listed?.transcriptId).toBe(transcriptId);
    await expect(
      testbed.call('recordings.transcribe', { id: recording.id, preset: 'Two-person interview' }),
    ).rejects.toThrow('This recording has been sent to be transcribed already.');

    await expect
      .poll(
        async () =>
          (await testbed.call<Highlight[]>('highlights.list', { transcriptId })).map((highlight) => ({
            note: highlight.note,
            spoken: highlight.startMs <= 3000 && highlight.endMs >= 3000 - 10_000,
          })),
        { timeout: 20_000 },
      )
      .toEqual([{ note: 'harbour', spoken: true }]);
    expect(testbed.services.recordingMarks.of(recording.id)[0]).toMatchObject({ placed: true });
  });

  it('transcribes a stereo recording one speaker per channel, and refuses what cannot be sent', async () => {
    const stereo = await recorded('stereo-call.wav', 2);
    const { transcriptId } = await testbed.call<{ transcriptId: string }>('recordings.transcribe', {
      id: stereo.id,
      preset: 'Phone call',
    });
    const options = (await testbed.services.core.library.get(transcriptId))?.options;
    expect(options).toMatchObject({ multichannel: true });
    expect(options).not.toHaveProperty('speaker_labels');
    await expect(testbed.call('recordings.transcribe', { id: 999, preset: 'Phone call' })).rejects.toThrow(
      'That recording is not in the library any more.',
    );
    const mono = await recorded('press-statement.wav', 1);
    await expect(
      testbed.call('recordings.transcribe', { id: mono.id, preset: 'Radio show' }),
    ).rejects.toThrow('There is no preset called "Radio show" any more.');
    const { recordings } = testbed.services.core;
    const running = await recordings.start(join(testbed.services.appInfo.dataDir, 'running.wav'), {
      sampleRate: 16_000,
      channels: 1,
    });
    await expect(
      testbed.call('recordings.transcribe', { id: running.id, preset: 'Phone call' }),
    ).rejects.toThrow('This recording is still going. Stop it first.');
  });
});

describe('recorder.freeSpace', () => {
  it('answers the bytes free on the disk of the recordings folder, made before the first recording', async () => {
    const { freeBytes } = await testbed.call<{ freeBytes: number }>('recorder.freeSpace');
    const folder = join(testbed.services.appInfo.dataDir, 'recordings');
    const { bavail, bsize } = statfsSync(folder);
    // Other writers on the machine move it a little between the two looks.
    expect(Math.abs(freeBytes - bavail * bsize)).toBeLessThan(256 * 1024 * 1024);
    expect(freeBytes).toBeGreaterThan(0);
  });
});

describe('recordingOptions', () => {
  it('keeps a mono preset as it is and makes a stereo one multichannel', () => {
    const preset = { speaker_labels: true, speakers_expected: 2, entity_detection: true };
    expect(recordingOptions(preset, 1)).toBe(preset);
    expect(recordingOptions(preset, 2)).toEqual({ entity_detection: true, multichannel: true });
  });
});
