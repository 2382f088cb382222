import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Recording } from '../../src/shared/recording';
import type { TranscriptSummary } from '../../src/shared/library';
import { startWebApp } from '../../src/web-host/start';
import { openDatabase } from '../../src/main/core/library/database';
import { pcm16WavHeader } from '../../src/main/core/media/wav-header';
import { Recordings } from '../../src/main/core/library/recordings';
import { spokenPcm } from '../fixtures/spoken-pcm';
import { callBridge } from './pages/bridge';
import { NewTranscriptionPage } from './pages/new-transcription-page';
import { RecordPage } from './pages/record-page';
import { AppShell } from './pages/app-shell';
import { test, expect, speed } from './fixtures';

/**
 * Recordings made in Verbatim and their transcripts (issue #31): a recording sent through the
 * New transcription form (the web host receives a copy of its bytes) is linked to its
 * transcript as if sent from the Record view, and one whose file has gone says so there.
 */
test('a recording sent from the New transcription form is linked; one whose file is gone says so', async ({
  page,
  emulator,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-recordings-'));
  const folder = join(dataDir, 'recordings');
  mkdirSync(folder);
  const format = { sampleRate: 16_000, channels: 1 } as const;
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  const recordings = new Recordings(db);
  const made: Recording[] = [];
  for (const [name, seconds] of [
    ['2026-11-26 09-00-00.wav', 3],
    ['2026-11-26 10-00-00.wav', 2],
  ] as const) {
    const path = join(folder, name);
    const sound = spokenPcm(seconds, 16_000);
    const started = await recordings.start(path, format);
    writeFileSync(path, Buffer.concat([pcm16WavHeader(format, sound.length), sound]));
    made.push(await recordings.finish(started.id, seconds * 1000));
  }
  db.close();
  const [interview, deleted] = made as [Recording, Recording];
  rmSync(deleted.path);

  const host = await startWebApp({
    dataDir,
    apiKey: emulator.options.key,
    transcriptionUrl: emulator.url,
    timeScale: speed,
  });
  try {
    await page.goto(host.openUrl);
    const record = new RecordPage(page);
    await record.open();
    const waiting = record.main.getByRole('region', { name: 'Not transcribed yet' });
    const gone = waiting.getByRole('region', { name: 'Transcribe 2026-11-26 10-00-00.wav' });
    await expect(gone).toContainText(
      `File missing: 2026-11-26 10-00-00.wav, 0:02. It is no longer at ${deleted.path}. Put it back there to transcribe it.`,
    );
    await expect(gone.getByRole('button')).toHaveCount(0);
    const offered = waiting.getByRole('region', { name: 'Transcribe 2026-11-26 09-00-00.wav' });
    await expect(offered.getByRole('group', { name: 'Transcribe now as' })).toBeVisible();

    const shell = new AppShell(page, host);
    await shell.goTo('new');
    const form = new NewTranscriptionPage(page);
    await form.fileInput.setInputFiles(interview.path);
    await form.submit.click();
    // The form hands over to the library once the job is stored.
    await expect(shell.heading).toHaveText('Library');
    const [job] = await callBridge<TranscriptSummary[]>(page, 'transcripts.list', {});
    expect(job!.title).toBe('2026-11-26 09-00-00');
    expect(await callBridge<Recording[]>(page, 'recordings.list')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: interview.id, transcriptId: job!.id, status: 'finished' }),
        expect.objectContaining({ id: deleted.id, transcriptId: null, status: 'missing' }),
      ]),
    );

    // Back in the Record view it is no longer waiting to be sent.
    await record.open();
    await expect(gone).toBeVisible();
    await expect(offered).toHaveCount(0);
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
