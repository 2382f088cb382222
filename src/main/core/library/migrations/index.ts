import { sql as transcripts } from './001-transcripts';
import { sql as sentencesSearch } from './002-sentences-search';
import { sql as scheduler } from './003-scheduler';
import { sql as catalogCache } from './004-catalog-cache';
import { sql as askConversations } from './005-ask-conversations';
import { sql as voiceConversations } from './006-voice-conversations';
import { sql as corrections } from './007-corrections';
import { sql as highlightsStories } from './008-highlights-stories';
import { sql as quotesOrder } from './009-quotes-order';
import { sql as glossaries } from './010-glossaries';
import { sql as searchPrefixes } from './011-search-prefixes';
import { sql as searchFacets } from './012-search-facets';
import { sql as recordings } from './013-recordings';
import { sql as searchDates } from './014-search-dates';
import { sql as recordingMarks } from './015-recording-marks';
import { sql as jobIntents } from './016-job-intents';
import { sql as newsroomOutbox } from './017-newsroom-outbox';
import { sql as newsroomAudioNote } from './018-newsroom-audio-note';
import { sql as newsroomCopies } from './019-newsroom-copies';
import { sql as newsroomGlossaries } from './020-newsroom-glossaries';
import { sql as collaborationNotices } from './021-collaboration-notices';
import { sql as checkStampsBy } from './022-check-stamps-by';
import { sql as sharedStories } from './023-shared-stories';

/**
 * Numbered migrations, applied in order, each in its own transaction; PRAGMA user_version
 * records how many have run. Never edit a shipped migration: add the next one.
 */
export const migrations: readonly { version: number; name: string; sql: string }[] = [
  { version: 1, name: 'transcripts', sql: transcripts },
  { version: 2, name: 'sentences-search', sql: sentencesSearch },
  { version: 3, name: 'scheduler', sql: scheduler },
  { version: 4, name: 'catalog-cache', sql: catalogCache },
  { version: 5, name: 'ask-conversations', sql: askConversations },
  { version: 6, name: 'voice-conversations', sql: voiceConversations },
  { version: 7, name: 'corrections', sql: corrections },
  { version: 8, name: 'highlights-stories', sql: highlightsStories },
  { version: 9, name: 'quotes-order', sql: quotesOrder },
  { version: 10, name: 'glossaries', sql: glossaries },
  { version: 11, name: 'search-prefixes', sql: searchPrefixes },
  { version: 12, name: 'search-facets', sql: searchFacets },
  { version: 13, name: 'recordings', sql: recordings },
  { version: 14, name: 'search-dates', sql: searchDates },
  { version: 15, name: 'recording-marks', sql: recordingMarks },
  { version: 16, name: 'job-intents', sql: jobIntents },
  { version: 17, name: 'newsroom-outbox', sql: newsroomOutbox },
  { version: 18, name: 'newsroom-audio-note', sql: newsroomAudioNote },
  { version: 19, name: 'newsroom-copies', sql: newsroomCopies },
  { version: 20, name: 'newsroom-glossaries', sql: newsroomGlossaries },
  { version: 21, name: 'collaboration-notices', sql: collaborationNotices },
  { version: 22, name: 'check-stamps-by', sql: checkStampsBy },
  { version: 23, name: 'shared-stories', sql: sharedStories },
];
