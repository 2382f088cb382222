import { printResult } from '../cli-io';
import type { OptionValues } from '../cli-options';
import type { CommandContext } from '../command';
import { storyLines } from '../highlight-lines';
import { UsageError } from '../usage-error';

/**
 * `story create|add|list|show`: building stories from a terminal (story.ts dispatches to them,
 * beside `story export`). A story is named by its id or its name, in quotes when it has spaces.
 */
export const storyActionOptions = {
  json: { type: 'boolean', description: 'prints the answer as JSON' },
} as const;

export const storyActionUsages = [
  'create <name> [--json]',
  'add <story> <highlight-id> [--json]',
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
    const updated = await library.addQuoteToStory(story.id, Number(highlight));
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

/** The actions by their word (a Map, so a word such as `constructor` is no action). */
export const storyActions: ReadonlyMap<string, StoryAction> = new Map(Object.entries(actions));
