import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, fixtureDir } from './fixtures';
import { CorrectionsPage } from './pages/corrections-page';

/**
 * Ctrl+Z after a correction shows the words as they were in the frame of the key press, before
 * main answers (issue #33), through the real web host and its real answers: a test with main's
 * answer to the undo held back.
 */
const interview = join(fixtureDir, 'interview-ferry-contract.wav');

test('Ctrl+Z shows the word as it was before main has answered, and main’s answer keeps it', async ({
  shell,
  page,
}) => {
  // Main's answers to `corrections.undo` wait until the test lets them go; the rest pass through.
  let releaseUndo = (): void => undefined;
  const undoHeld = new Promise<void>((resolve) => (releaseUndo = resolve));
  let undoAsked = false;
  await page.routeWebSocket(/__verbatim\/api/, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((raw) => {
      const message = JSON.parse(String(raw)) as { method?: string };
      if (message.method === 'corrections.undo') {
        undoAsked = true;
        void undoHeld.then(() => server.send(raw));
      } else server.send(raw);
    });
  });
  await shell.open();
  const corrections = new CorrectionsPage(page);
  const { reader } = corrections;
  await reader.openNewTranscript(interview, { speaker_labels: true });

  await corrections.retype('Gull', 'Gall');
  await expect(corrections.undo).toHaveAccessibleName('Undo: Changed “Gull” to “Gall”');
  // The focus is back on the turn's words, where Ctrl+Z undoes the last stored edit.
  await page.keyboard.press('Control+z');
  await expect.poll(() => undoAsked).toBe(true);
  // Main has not answered: the word is back all the same.
  await expect(reader.word('Gull')).toHaveCount(1);
  await expect(reader.word('Gall')).toHaveCount(0);

  releaseUndo();
  await expect(corrections.redo).toHaveAccessibleName('Redo: Changed “Gull” to “Gall”');
  await expect(reader.word('Gull')).toHaveCount(1);
  await expect(reader.word('Gall')).toHaveCount(0);
  expect(await corrections.storedWords(await currentId(page))).toContainEqual(
    expect.objectContaining({ text: 'Gull' }),
  );
});

/** The open transcript's id, from the address. */
async function currentId(page: Page): Promise<string> {
  return decodeURIComponent(/#\/transcript\/([^?]+)/.exec(page.url())?.[1] ?? '');
}
