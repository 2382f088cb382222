import { openDatabase } from '../library/database';
import { Library } from '../library/library';
import { parseNewsroomAddress } from '../newsroom/newsroom-address';
import { approveLocally, quoteKeyOf, requireSharedStory } from './story-review-actions';
import { reviewerOf } from './story-review-sync';

/**
 * Test support, run as a child process (`node --import tsx <this file> <library> <newsroom url>
 * <story key> <quote number>`): approves the quote in the library as `story approve` does, prints
 * "saved", then waits forever before any sync, so the test SIGKILLs it with the approval saved
 * and not sent.
 */
const [libraryPath, url, storyKey, quote] = process.argv.slice(2) as [string, string, string, string];
const library = new Library(openDatabase(libraryPath));
const reviewer = reviewerOf(parseNewsroomAddress(url, 'VERBATIM_NEWSROOM_URL'));
const story = await requireSharedStory(library, reviewer, storyKey);
await approveLocally(library, reviewer, {
  storyKey,
  quoteKey: quoteKeyOf(story, Number(quote)),
  withdrawn: false,
  at: Date.now(),
});
process.stdout.write('saved\n');
await new Promise(() => undefined);
