import { afterEach, describe, expect, it } from 'vitest';
import { acceleratedClock } from '../src/main/base/clock';
import { startEmulator, type RunningEmulator } from '../test/emulator/server';
import { Api, fixture } from '../test/emulator/transcription/test-helpers';
import { countAtService, fixedPoller } from './scheduler';

describe("the scheduler benchmark's baseline: a fixed poller that really runs", () => {
  let emulator: RunningEmulator | undefined;
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
  });

  it('sends one status request every interval until each job is done, as the emulator logs them', async () => {
    const speed = 50;
    emulator = await startEmulator({
      speed,
      processing: { medianShare: 0.25, spread: 0, workers: 1, seed: 'poller' },
    });
    const audioUrl = await Api.of(emulator).upload(fixture('press-statement.wav'));
    const poller = await fixedPoller({
      url: emulator.url,
      key: emulator.options.key,
      audioUrl,
      jobs: 3,
      intervalMs: 3000,
      clock: acceleratedClock(speed),
    });
    const seen = await countAtService(emulator);
    expect(poller.completed).toBe(3);
    expect(seen.completed).toBe(3);
    // Counted at the service, not computed: the poller's own count agrees with the log.
    expect(seen.statusRequests).toBe(poller.requests);
    // Three jobs through one worker: the later ones wait, so they cost more looks.
    expect(poller.requests).toBeGreaterThan(3 * 2);
    // Every 3 s of emulated time, give or take the requests' own time on the fast clock.
    expect(poller.meanIntervalMs).toBeGreaterThan(2900);
    expect(poller.meanIntervalMs).toBeLessThan(4500);
  });
});
