import { dirname, join } from 'node:path';
import { openDatabase } from '../../src/main/core/library/database';
import { newSentenceFacetsSql } from '../../src/main/core/library/search-facets';
import { test, expect } from './fixtures';
import { LibraryPage } from './pages/library-page';

/**
 * Search at archive scale (issue #22) as the journalist sees it: a word that matches more than
 * a thousand sentences shows the best of the most recent thousand, and says so; typing fast
 * shows the results of the text in the box, never of an older keystroke.
 */
test('a very common word says its page is the best of the 1,000 most recent, and typing shows the latest text', async ({
  shell,
  page,
  host,
}) => {
  // An archive of 12 days with 150 sentences each, stored as the library stores sentences.
  const db = openDatabase(join(dirname(dirname(host.logFile)), 'library.sqlite'));
  try {
    const insertTranscript = db.prepare(
      "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES (?, ?, 'file', ?, 'completed', ?, ?)",
    );
    const insertSentence = db.prepare(
      `INSERT INTO sentences (transcript_id, position, start_ms, end_ms, speaker, text, facets)
       VALUES (@transcript, @position, @startMs, @startMs + 900, @speaker, @text, ${newSentenceFacetsSql})`,
    );
    db.transaction(() => {
      for (let day = 0; day < 12; day++) {
        const id = `archive-${day}`;
        insertTranscript.run(
          id,
          `Council meeting, day ${day + 1}`,
          `/rec/${id}.wav`,
          day * 86_400_000,
          day * 86_400_000,
        );
        for (let position = 0; position < 150; position++)
          insertSentence.run({
            transcript: id,
            position,
            startMs: position * 1000,
            speaker: 'A',
            text: `The ferry timetable was read again, item ${position} of day ${day + 1}.`,
          });
      }
      insertSentence.run({
        transcript: 'archive-3',
        position: 150,
        startMs: 150_000,
        speaker: 'A',
        text: 'The ferret escaped.',
      });
    })();
  } finally {
    db.close();
  }

  await shell.open();
  const library = new LibraryPage(page);
  await library.search('timetable');
  await expect(library.matchCount).toContainText('1,000+');
  await expect(page.getByTestId('search-ranking')).toHaveText(
    '· the best of the 1,000 most recent; add a word or a filter to reach further back',
  );
  // The newest day first among equals.
  await expect(library.hits.first()).toContainText('day 12');

  // Typed a letter at a time, as fast as the keyboard goes: the results are those of "ferret".
  await library.searchBox.fill('');
  await library.searchBox.pressSequentially('ferret', { delay: 0 });
  await expect(library.hits).toHaveCount(1);
  await expect(library.hits.first()).toContainText('The ferret escaped.');
  await expect(page.getByTestId('search-ranking')).toHaveCount(0);
  await expect(library.matchCount).toContainText('1 match');
});
