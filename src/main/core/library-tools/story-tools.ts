import { z } from 'zod';
import { isVerbatimError } from '../../../shared/errors';
import { storyNameMaxLength } from '../../../shared/highlights';
import { hhmmss } from '../export/export-model';
import type { Library } from '../library/library';
import { maxPassageMs, type LibraryTool } from './library-tools';

/**
 * The voice assistant's story tools (issue #20): read a story's quotes back, and add the passage
 * it just read (`read_passage`'s transcript id and times) to a named story. They write to the
 * library, so only the assistant gets them; Ask's tools stay read-only.
 */
const storyName = z
  .string()
  .trim()
  .min(1)
  .max(storyNameMaxLength)
  .describe('The story’s name, as the reporter said it.');

const readStoryArgs = z.object({ story: storyName });

const addPassageArgs = z
  .object({
    story: storyName,
    transcript_id: z
      .string()
      .min(1)
      .max(100)
      .describe('The transcript of the passage, as read_passage returned it.'),
    start_ms: z.number().int().min(0).describe('Start of the passage, in milliseconds.'),
    end_ms: z.number().int().min(1).describe('End of the passage, in milliseconds.'),
    note: z.string().max(2000).optional().describe('A note the reporter dictated for this quote.'),
  })
  .refine((a) => a.end_ms > a.start_ms, { message: 'end_ms must be after start_ms' })
  .refine((a) => a.end_ms - a.start_ms <= maxPassageMs, {
    message: `a passage can be at most ${maxPassageMs / 60_000} minutes long`,
  });

/** The story, or null when none has that name (the caller says so to the model). */
async function storyNamed(library: Library, name: string) {
  try {
    return await library.findStory(name);
  } catch (error) {
    if (isVerbatimError(error) && error.code === 'not_found') return null;
    throw error;
  }
}

const readStory: LibraryTool<typeof readStoryArgs> = {
  name: 'read_story',
  description:
    "Reads back one of the reporter's stories: its quotes in order, each with the speaker, the transcript and the time.",
  args: readStoryArgs,
  async run(library, { story: name }) {
    const story = await storyNamed(library, name);
    if (!story) {
      const names = (await library.storyList()).map((known) => known.name);
      return {
        error: `There is no story called ${name}. The stories are: ${names.join(', ') || 'none yet'}.`,
      };
    }
    return {
      story: story.name,
      quotes: story.items.flatMap((item) =>
        item.kind === 'quote'
          ? [
              {
                speaker: item.speakerName,
                transcript_title: item.transcriptTitle,
                time: hhmmss(item.startMs),
                quote: item.text,
                // Said so the assistant does not read a deleted passage as if it still stood.
                words_deleted: item.missing,
              },
            ]
          : [],
      ),
    };
  },
};

const addPassageToStory: LibraryTool<typeof addPassageArgs> = {
  name: 'add_passage_to_story',
  description:
    'Adds a passage (usually the one just read with read_passage) to a story of the reporter as a quote at its end. Creates the story when there is none with that name.',
  args: addPassageArgs,
  async run(library, { story: name, transcript_id: transcriptId, start_ms: startMs, end_ms: endMs, note }) {
    // The highlight first: a passage with no words is refused before any story is created.
    const highlight = await library.createHighlight({ transcriptId, startMs, endMs, note: note ?? '' });
    const existing = await storyNamed(library, name);
    const story = existing ?? (await library.createStory(name));
    const updated = await library.addQuoteToStory(story.id, highlight.id);
    return {
      story: updated.name,
      created_story: existing === null,
      quotes_in_story: updated.quotes,
      added: { speaker: highlight.speakerName, time: hhmmss(highlight.startMs), quote: highlight.text },
    };
  },
};

export const storyTools: readonly LibraryTool[] = [readStory, addPassageToStory] as LibraryTool[];
