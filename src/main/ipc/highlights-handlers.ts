import type { Handlers } from '../../shared/ipc/contract';
import type { highlightsContract } from '../../shared/ipc/highlights-contract';
import type { Services } from '../core/app-services';

// Exactly highlights-contract's methods: stories.export is in story-export-handlers.ts.
type HighlightsHandlers = Pick<Handlers, keyof typeof highlightsContract>;

/**
 * Highlights, the Quotes view and stories, over the library. The library announces every
 * change itself (`highlightsChanged`, `storiesChanged`, wired to the windows in events.ts), so
 * a change the assistant or a correction makes reaches the windows as one made here does.
 */
export function createHighlightsHandlers(services: Pick<Services, 'core'>): HighlightsHandlers {
  const { library } = services.core;
  return {
    'highlights.labels': () => library.highlightLabels(),
    'highlights.updateLabel': ({ id, name, color }) => library.updateHighlightLabel(id, { name, color }),
    'highlights.create': (input) => library.createHighlight(input),
    'highlights.update': ({ id, labelId, note }) => library.updateHighlight(id, { labelId, note }),
    'highlights.delete': async ({ id }) => {
      await library.deleteHighlight(id);
      return { deleted: id };
    },
    'highlights.list': ({ transcriptId }) => library.highlightsOf(transcriptId),
    'quotes.list': (filters) => library.quotes(filters),
    'quotes.facets': () => library.quoteFacets(),
    'stories.list': () => library.storyList(),
    'stories.search': ({ query }) => library.searchStories(query),
    'stories.create': ({ name }) => library.createStory(name),
    'stories.rename': ({ id, name }) => library.renameStory(id, name),
    'stories.delete': async ({ id }) => {
      await library.deleteStory(id);
      return { deleted: id };
    },
    'stories.get': ({ id }) => library.story(id),
    'stories.addQuote': ({ storyId, highlightId, index, again }) =>
      library.addQuoteToStory(storyId, highlightId, { index, again }),
    'stories.addText': ({ storyId, text, index }) => library.addTextToStory(storyId, text, index),
    'stories.editText': ({ storyId, itemId, text }) => library.editStoryText(storyId, itemId, text),
    'stories.moveItem': ({ storyId, itemId, index }) => library.moveStoryItem(storyId, itemId, index),
    'stories.removeItem': ({ storyId, itemId }) => library.removeStoryItem(storyId, itemId),
    'stories.trimQuote': ({ storyId, itemId, startMs, endMs }) =>
      library.trimStoryQuote(storyId, itemId, startMs, endMs),
    'stories.quotesOf': ({ transcriptId }) => library.storyQuotesOf(transcriptId),
  };
}
