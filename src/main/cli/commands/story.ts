import { defineCommand } from '../command';
import { UsageError } from '../usage-error';
import { storyActionOptions, storyActions, storyActionUsages } from './story-actions';
import { exportStoryFromCommandLine, storyExportOptions, storyExportUsage } from './story-export';
import { storyReviewActions, storyReviewOptions, storyReviewUsages } from './story-review';

/**
 * `story …`: stories from a terminal. One row of the command table for every story command, so
 * each is a word after `story` (as `catalog models` is); each action lives in its own file.
 */
export const storyCommand = defineCommand({
  name: 'story',
  usage: [...storyActionUsages, storyExportUsage, ...storyReviewUsages],
  summary:
    "Stories of quotes: create one, add highlights to it, list and show them, export one with a citation per quote and its audio clips; share one with your desk's editor (VERBATIM_NEWSROOM_URL), comment on its quotes and passages, approve quotes, resolve comments, list the stories shared with you.",
  options: { ...storyActionOptions, ...storyExportOptions, ...storyReviewOptions },
  takesWords: true,
  async run({ values, positionals }, context) {
    const [action, ...words] = positionals;
    const storyAction = action === undefined ? undefined : storyActions.get(action);
    if (storyAction) return storyAction(words, values, context);
    const reviewAction = action === undefined ? undefined : storyReviewActions.get(action);
    if (reviewAction) return reviewAction(words, values, context);
    switch (action) {
      case 'export':
        return exportStoryFromCommandLine(words, values, context);
      default:
        throw new UsageError(
          action
            ? `unknown story command "${action}"`
            : 'story needs a command: create, add, list, show, export, share, comment, comments, approve, resolve or reviews',
        );
    }
  },
});
