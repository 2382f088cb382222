import { VerbatimError } from '../../../shared/errors';
import { placesInStory, quoteAlreadyInStorySchema } from '../../../shared/highlights';
import type { Library } from '../../core/library/library';
import { printResult } from '../cli-io';
import type { OptionValues } from '../cli-options';
import type { CommandContext } from '../command';
import { cliCommand } from '../correction-lines';
import { storyLines } from '../highlight-lines';
import { UsageError } from '../usage-error';

/**
 * `story create|add|list|show`: building stories from a terminal (story.ts dispatches to them,
 * beside `story export`). A story is named by its id or its name, in quotes when it has spaces.
 */
export const storyActionOptions = {
  json: { type: 'boolean', description: 'prints the answer as JSON' },
  again: { type: 'boolean', description: 'story add: adds the highlight even when the story already has it' },
} as const;

export const storyActionUsages = [
  'create <name> [--json]',
  'add <story> <highlight-id> [--again] [--json]',
  'list [--json]',
  'show <story> [--json]',
] as const;

type StoryActionValues = Partial<OptionValues<typeof storyActionOptions>>;
type Context = Pick<CommandContext, 'io' | 'openLibrary'>;

type StoryAction = (words: string[], values: StoryActionValues, context: Context) => Promise<number>;

const actions: Record<string, StoryAction> = {
  async create(words, values, { io, openLibrary }) {
    const name = words.join(' ').trim();
    if (!name) throw new UsageError('story create needs the story’s name');
    const story = await openLibrary({ showProgress: false }).core.library.createStory(name);
    printResult(io, values.json ?? false, story, () => `Created the story "${story.name}" (${story.id}).`);
    return 0;
  },

  async add(words, values, { io, openLibrary }) {
    const [reference, highlight, ...extra] = words;
    if (!reference || !highlight || extra.length > 0)
      throw new UsageError('story add needs a story (its id or name) and a highlight id');
    if (!/^\d+$/.test(highlight))
      throw new UsageError(`"${highlight}" is not a highlight id; the highlights command lists them`);
    const { library } = openLibrary({ showProgress: false }).core;
    const story = await library.findStory(reference);
    const updated = await addQuote(library, story.id, Number(highlight), values.again ?? false);
    printResult(
      io,
      values.json ?? false,
      updated,
      () => `Added highlight ${highlight} to "${updated.name}":\n${storyLines(updated)}`,
    );
    return 0;
  },

  async list(words, values, { io, openLibrary }) {
    if (words.length > 0) throw new UsageError('story list takes no more words');
    const stories = await openLibrary({ showProgress: false }).core.library.storyList();
    printResult(io, values.json ?? false, stories, () =>
      stories.length === 0
        ? 'No stories yet. Start one with: npm run cli -- story create "<name>"'
        : stories
            .map(
              (story) =>
                `${String(story.id).padStart(4)}  ${story.name}  (${story.quotes} quote${story.quotes === 1 ? '' : 's'})`,
            )
            .join('\n'),
    );
    return 0;
  },

  async show(words, values, { io, openLibrary }) {
    if (words.length !== 1 || !words[0])
      throw new UsageError('story show needs one story, by its id or its name in quotes');
    const story = await openLibrary({ showProgress: false }).core.library.findStory(words[0]);
    printResult(io, values.json ?? false, story, () => storyLines(story));
    return 0;
  },
};

/**
 * Adds the highlight, saying in the command line's words why it was not: a story that already
 * has it (with where, and --again), or a highlight id that does not exist (with how to list them).
 */
async function addQuote(library: Library, storyId: number, highlightId: number, again: boolean) {
  try {
    return await library.addQuoteToStory(storyId, highlightId, { again });
  } catch (error) {
    if (!(error instanceof VerbatimError)) throw error;
    const already = quoteAlreadyInStorySchema.safeParse(error.details);
    if (already.success)
      throw new VerbatimError(
        'conflict',
        `Highlight ${highlightId} is already in the story “${already.data.storyName}”, as ${placesInStory(already.data)}; nothing was added. To quote it there twice, add --again.`,
        already.data,
      );
    // The id was typed, not picked from a list: it may never have existed, so it is not "no longer" there.
    if (
      error.code === 'not_found' &&
      (error.details as { highlightId?: unknown } | undefined)?.highlightId === highlightId
    )
      throw new VerbatimError(
        'not_found',
        `There is no highlight ${highlightId}. The highlights command lists them with their ids: ${cliCommand('highlights')}`,
        { highlightId },
      );
    throw error;
  }
}

/** The actions by their word (a Map, so a word such as `constructor` is no action). */
export const storyActions: ReadonlyMap<string, StoryAction> = new Map(Object.entries(actions));
