import { mkdtempSync, rmSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Highlight, Story } from '../../src/shared/highlights';
import type { RecorderStatus, Recording } from '../../src/shared/recording';
import { startWebApp } from '../../src/web-host/start';
import { spokenPcm } from '../fixtures/spoken-pcm';
import { bridgeCalls, callBridge, type SentCall } from './pages/bridge';
import { CorrectionsPage } from './pages/corrections-page';
import { GlossaryPage } from './pages/glossary-page';
import { ReaderHighlights, StoriesPage } from './pages/highlights-page';
import { RecordPage } from './pages/record-page';
import { test, expect, fixtureDir, speed } from './fixtures';

/**
 * A click that also ends an edit does both, in order (issue #31): what was typed is saved as the
 * editor is left, and the click lands on what was under the pointer, though the editor closing
 * changes what is around it. Each test types into one of the app's in-place editors and clicks
 * another action directly, without Enter or Tab first.
 */
const interview = join(fixtureDir, 'interview-ferry-contract.wav');

/** The methods among `methods` the page called, in order. */
function sent(calls: SentCall[], methods: string[]): string[] {
  return calls.filter((call) => methods.includes(call.method)).map((call) => call.method);
}

test('Record: a word typed for a mark, then Stop, then another word and "Press conference": each word is saved, then each click done', async ({
  page,
  emulator,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-record-'));
  const host = await startWebApp({
    dataDir,
    apiKey: emulator.options.key,
    transcriptionUrl: emulator.url,
    timeScale: speed,
    recordInput: spokenPcm(4, 16_000),
    recordInputRate: 16_000,
    recordInputSpeed: 4,
  });
  try {
    const calls = bridgeCalls(page);
    await page.goto(host.openUrl);
    const record = new RecordPage(page);
    await record.open();
    await record.button('Record').click();
    await record.waitForElapsed(1);
    await page.keyboard.press('m');
    const note = record.main.getByRole('textbox', { name: /^Word for the moment at / });
    await note.fill('ferry');
    await record.button('Stop').click();
    await expect(record.state).toHaveText('Stopped');

    // The steps: after Stop, a word typed, then a preset clicked.
    await note.fill('harbour');
    await record.main
      .getByRole('group', { name: 'Transcribe now as' })
      .getByRole('button', { name: 'Press conference' })
      .click();
    await expect(
      record.main.getByRole('status').filter({ hasText: 'Sent to be transcribed.' }),
    ).toBeVisible();
    expect(sent(calls, ['recorder.noteMark', 'recorder.stop', 'recordings.transcribe'])).toEqual([
      'recorder.noteMark',
      'recorder.stop',
      'recorder.noteMark',
      'recordings.transcribe',
    ]);
    const [recording] = await callBridge<Recording[]>(page, 'recordings.list');
    expect(recording!.transcriptId).not.toBeNull();
    const { marks } = await callBridge<RecorderStatus>(page, 'recorder.status');
    expect(marks.map((mark) => mark.note)).toEqual(['harbour']);
  } finally {
    // The page first: left open, its bridge would try to reconnect to the closed host.
    await page.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('Reader: a turn retyped, then the next turn’s speaker clicked, stores the text and opens that rename', async ({
  shell,
  page,
}) => {
  const calls = bridgeCalls(page);
  await shell.open();
  const corrections = new CorrectionsPage(page);
  await corrections.reader.openNewTranscript(interview, { speaker_labels: true });
  const first = corrections.reader.transcript.locator('[data-turn="0"]');
  await corrections.selectWordInEditor(await first.locator('[data-w]').first().innerText());
  await page.keyboard.type('Wonderful');
  const next = corrections.reader.transcript.locator('[data-turn="1"] button[data-speaker]');
  const label = await next.getAttribute('data-speaker');
  await next.click();

  const rename = page.getByRole('textbox', { name: `New name for speaker ${label}` });
  await expect(rename).toBeFocused();
  await expect(first.locator('[data-w]').first()).toHaveText('Wonderful');
  await rename.fill('Ines Duarte');
  await rename.press('Enter');
  await expect(next).toHaveText('Ines Duarte');
  expect(sent(calls, ['corrections.edit', 'transcripts.renameSpeaker'])).toEqual([
    'corrections.edit',
    'transcripts.renameSpeaker',
  ]);
});

test('Reader: a speaker renamed, then the time of its turn clicked, saves the name and plays from there', async ({
  shell,
  page,
}) => {
  const calls = bridgeCalls(page);
  await shell.open();
  const { reader } = new CorrectionsPage(page);
  const id = await reader.openNewTranscript(interview, { speaker_labels: true });
  await expect.poll(() => reader.audioReady()).toBeGreaterThanOrEqual(1);
  const turn = reader.transcript.locator('[data-turn="1"]');
  const speaker = turn.locator('button[data-speaker]');
  const label = await speaker.getAttribute('data-speaker');
  const startMs = await reader.wordStartMs(
    id,
    Number(await turn.locator('[data-w]').first().getAttribute('data-w')),
  );
  await speaker.click();
  await page.getByRole('textbox', { name: `New name for speaker ${label}` }).fill('Councillor Ines Duarte');
  await turn.getByRole('button', { name: /^Play from / }).click();

  await expect(speaker).toHaveText('Councillor Ines Duarte');
  await expect.poll(() => reader.currentTime()).toBeCloseTo(startMs / 1000, 1);
  expect(sent(calls, ['transcripts.renameSpeaker'])).toEqual(['transcripts.renameSpeaker']);
});

test('Reader: a title typed, then the Highlights panel clicked, saves the title and opens the panel', async ({
  shell,
  page,
}) => {
  const calls = bridgeCalls(page);
  await shell.open();
  const highlights = new ReaderHighlights(page);
  await highlights.reader.openNewTranscript(interview, { speaker_labels: true });
  await page.getByRole('button', { name: 'Edit title' }).click();
  await page.getByRole('textbox', { name: 'Title' }).fill('Ferry contract, the councillor');
  await highlights.tab.click();

  await expect(highlights.panel).toBeVisible();
  await expect(highlights.reader.heading).toHaveText('Ferry contract, the councillor');
  expect(sent(calls, ['transcripts.setTitle'])).toEqual(['transcripts.setTitle']);
});

test('Reader: a highlight’s note typed, then Save clicked directly, saves the note', async ({
  shell,
  page,
}) => {
  const calls = bridgeCalls(page);
  await shell.open();
  const highlights = new ReaderHighlights(page);
  const id = await highlights.reader.openNewTranscript(interview, {});
  const [sentence] = (
    await callBridge<{ sentences: { startMs: number; endMs: number }[] }>(page, 'transcripts.get', { id })
  ).sentences;
  const highlight = await callBridge<Highlight>(page, 'highlights.create', {
    transcriptId: id,
    startMs: sentence!.startMs,
    endMs: sentence!.endMs,
  });
  await highlights.tab.click();
  await highlights.items
    .first()
    .getByRole('button', { name: /^Edit the highlight/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Edit the highlight' });
  await dialog.getByLabel('Note (optional)').fill('Check the date with the council');
  await dialog.getByRole('button', { name: 'Save' }).click();

  await expect(highlights.items.first()).toContainText('Check the date with the council');
  expect(calls.filter((call) => call.method === 'highlights.update').map((call) => call.input)).toEqual([
    expect.objectContaining({ id: highlight.id, note: 'Check the date with the council' }),
  ]);
});

test('Glossary: a note typed into an entry, then another entry’s Remove clicked, saves the note and removes that entry', async ({
  shell,
  page,
}) => {
  const calls = bridgeCalls(page);
  await shell.open();
  await shell.goTo('glossary');
  const glossary = new GlossaryPage(page);
  await glossary.add({ term: 'Northwind Ferries', kind: 'organisation' });
  await expect(glossary.rows).toHaveCount(1);
  await glossary.add({ term: 'Brennan', kind: 'person' });
  await expect(glossary.rows).toHaveCount(2);
  await glossary.field('Note', 'Northwind Ferries').fill('The operator');
  await page.getByRole('button', { name: 'Remove “Brennan”' }).click();

  await expect(glossary.rows).toHaveCount(1);
  await page.reload();
  await expect(glossary.field('Note', 'Northwind Ferries')).toHaveValue('The operator');
  expect(sent(calls, ['glossaries.updateEntry', 'glossaries.removeEntry'])).toEqual([
    'glossaries.updateEntry',
    'glossaries.removeEntry',
  ]);
});

test('Glossary: a glossary renamed, then another glossary clicked, saves the name and opens the other', async ({
  shell,
  page,
}) => {
  const calls = bridgeCalls(page);
  await shell.open();
  await shell.goTo('glossary');
  const glossary = new GlossaryPage(page);
  await glossary.create('Council');
  await expect(page.getByRole('heading', { name: 'Council', level: 2 })).toBeVisible();
  await page.getByRole('button', { name: 'Rename…' }).click();
  await page.getByLabel('Glossary name').fill('Council beat');
  await glossary.glossary('General').click();

  await expect(page.getByRole('heading', { level: 2 })).toHaveText('General');
  await expect(glossary.glossary('Council beat')).toBeVisible();
  expect(sent(calls, ['glossaries.rename'])).toEqual(['glossaries.rename']);
});

test('Settings: a label renamed, then another label’s colour clicked, saves the name and the colour', async ({
  shell,
  page,
}) => {
  const calls = bridgeCalls(page);
  await shell.open();
  await shell.goTo('settings');
  const section = page.getByRole('group', { name: 'Highlight labels' });
  await section.getByLabel('Name of the “Check” label').fill('Verify');
  const quoteColours = section.getByRole('radiogroup', { name: 'Colour of the “Quote” label' });
  await quoteColours.getByText('green', { exact: true }).click();

  await expect(section.getByLabel('Name of the “Verify” label')).toHaveValue('Verify');
  await expect(quoteColours.getByRole('radio', { name: 'green' })).toBeChecked();
  await page.reload();
  await expect(section.getByLabel('Name of the “Verify” label')).toHaveValue('Verify');
  await expect(quoteColours.getByRole('radio', { name: 'green' })).toBeChecked();
  expect(calls.filter((call) => call.method === 'highlights.updateLabel').map((call) => call.input)).toEqual([
    expect.objectContaining({ name: 'Verify' }),
    expect.objectContaining({ color: 'green' }),
  ]);
});

/** Two stories made through the bridge, as another window would: "Ferry" with two texts, and "Budget". */
async function twoStories(page: Page): Promise<{ ferry: Story; budget: Story }> {
  let ferry = await callBridge<Story>(page, 'stories.create', { name: 'Ferry' });
  ferry = await callBridge<Story>(page, 'stories.addText', { storyId: ferry.id, text: 'First draft line' });
  ferry = await callBridge<Story>(page, 'stories.addText', { storyId: ferry.id, text: 'Second line' });
  const budget = await callBridge<Story>(page, 'stories.create', { name: 'Budget' });
  return { ferry, budget };
}

test('Stories: a text edited, then another text’s Edit clicked, saves the first and opens the second', async ({
  shell,
  page,
}) => {
  const calls = bridgeCalls(page);
  await shell.open();
  await twoStories(page);
  await shell.goTo('stories');
  const stories = new StoriesPage(page);
  await stories.open('Ferry');
  await page.getByRole('button', { name: 'Edit the text “First draft line”' }).click();
  const editor = page.getByRole('textbox', { name: 'Edit the text' });
  await editor.fill('First line, edited');
  await page.getByRole('button', { name: 'Edit the text “Second line”' }).click();

  // The first editor gives way a task after the press is released (so the click lands where it
  // was aimed): until then both are open.
  await expect(editor).toHaveCount(1);
  await expect(editor).toHaveValue('Second line');
  await expect(stories.items.first()).toContainText('First line, edited');
  expect(calls.filter((call) => call.method === 'stories.editText').map((call) => call.input)).toEqual([
    expect.objectContaining({ text: 'First line, edited' }),
  ]);
});

test('Stories: a story renamed, then another story clicked, saves the name and opens the other', async ({
  shell,
  page,
}) => {
  const calls = bridgeCalls(page);
  await shell.open();
  const { ferry, budget } = await twoStories(page);
  await shell.goTo('stories');
  const stories = new StoriesPage(page);
  await stories.open('Ferry');
  await page.getByRole('button', { name: 'Rename…' }).click();
  await page.getByLabel('Story name').fill('Ferry contract');
  await stories.list.getByRole('button', { name: /^Budget/ }).click();

  await expect(page.getByRole('heading', { level: 2 })).toHaveText('Budget');
  await expect(stories.list.getByRole('button', { name: /^Ferry contract/ })).toBeVisible();
  const renamedThenOpened = calls
    .filter(
      (call) =>
        (call.method === 'stories.rename' && (call.input as { id: number }).id === ferry.id) ||
        (call.method === 'stories.get' && (call.input as { id: number }).id === budget.id),
    )
    .map((call) => call.method);
  expect(renamedThenOpened).toEqual(['stories.rename', 'stories.get']);
});
