import { resolve } from 'node:path';
import type { Story } from '../../../shared/highlights';
import type { CollaborationNotice } from './collaboration-notice';
import { libraryRecordings } from '../export/library-story-export';
import { openDatabase, type Db } from '../library/database';
import { Library } from '../library/library';
import {
  completedTranscriptFromLines,
  misheardTimings,
  storeFinished,
} from '../library/completed-transcript.test-kit';
import { connectionAs } from '../newsroom/newsroom-archive.test-kit';
import type { NewsroomServer } from '../newsroom/newsroom-server.test-kit';
import { createStoryReviewSync, reviewerOf, type Reviewer, type StoryReviewSync } from './story-review-sync';

/** The ferry interview's recording, a WAV each quote's sound is cut from. */
export const ferryRecording = resolve(
  import.meta.dirname,
  '../../../../test/fixtures/interview-ferry-contract.wav',
);

/** One user of the sample newsroom with their own library, its review's sync and the notices it raised. */
export interface ReviewDesk {
  user: string;
  library: Library;
  /** The library's database, to look behind it (or lose a record, as a killed process would). */
  db: Db;
  reviewer: Reviewer;
  notices: CollaborationNotice[];
  sync: StoryReviewSync;
  close(): Promise<void>;
}

export function reviewDeskOf(server: NewsroomServer, user: string, path = ':memory:'): ReviewDesk {
  const db = openDatabase(path);
  const library = new Library(db);
  const connection = connectionAs(server, user);
  const reviewer = reviewerOf(connection.address);
  const notices: CollaborationNotice[] = [];
  return {
    user,
    library,
    db,
    reviewer,
    notices,
    sync: createStoryReviewSync({
      library,
      newsroom: (work) => work(connection),
      reviewer,
      findRecording: libraryRecordings(library, async () => null),
      sink: (notice) => void notices.push(notice),
      timeZone: 'UTC',
    }),
    close: () => connection.close(),
  };
}

/**
 * The reporter's story: a heading of their own, then three quotes of the ferry interview (its
 * recording linked, so each quote has its sound) with a line of text between the second and third.
 */
export async function writeFerryStory(library: Library): Promise<Story> {
  const lines = Array.from(
    { length: 12 },
    (_, n) => [n % 2 === 0 ? 'A' : 'B', `The ferry line ${n} sails at dawn today.`, n * 3000] as const,
  );
  await storeFinished(
    library,
    'ferry',
    'Ferry interview',
    completedTranscriptFromLines(lines, misheardTimings, {
      transcript: { id: 'remote-ferry', language_code: 'en' },
    }),
  );
  await library.relink('ferry', ferryRecording);
  const story = await library.createStory('Ferry contract');
  await library.addTextToStory(story.id, 'The council signed the ferry contract in March.');
  for (const [index, startMs] of [0, 6000, 12_000].entries()) {
    const highlight = await library.createHighlight({
      transcriptId: 'ferry',
      startMs,
      endMs: startMs + 2000,
    });
    await library.addQuoteToStory(story.id, highlight.id);
    if (index === 1) await library.addTextToStory(story.id, 'Critics say the bid was rushed.');
  }
  return library.story(story.id);
}

/** The story's quote items, in order: quote N is `quotes(story)[N - 1]`. */
export function quoteKeys(story: Story): string[] {
  return story.items.filter((item) => item.kind === 'quote').map((item) => String(item.id));
}
