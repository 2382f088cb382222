import { defineCommand } from '../command';
import { UsageError } from '../usage-error';
import { storyActionOptions, storyActions, storyActionUsages } from './story-actions';
import { exportStoryFromCommandLine, storyExportOptions, storyExportUsage } from './story-export';

/**
 * `story …`: stories from a terminal. One row of the command table for every story command, so
 * each is a word after `story` (as `catalog models` is); each action lives in its own file.
 */
export const storyCommand = defineCommand({
  name: 'story',
  usage: [...storyActionUsages, storyExportUsage],
  summary:
    'Stories of quotes: create one, add highlights to it, list and show them, export one with a citation per quote and its audio clips.',
  options: { ...storyActionOptions, ...storyExportOptions },
  takesWords: true,
  async run({ values, positionals }, context) {
    const [action, ...words] = positionals;
    const storyAction = action === undefined ? undefined : storyActions.get(action);
    if (storyAction) return storyAction(words, values, context);
    switch (action) {
      case 'export':
        return exportStoryFromCommandLine(words, values, context);
      default:
        throw new UsageError(
          action
            ? `unknown story command "${action}"`
            : 'story needs a command: create, add, list, show or export',
        );
    }
  },
});
