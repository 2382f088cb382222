import type { CliCommand } from './command';
import { askCommand } from './commands/ask';
import { catalogCommand } from './commands/catalog';
import { deleteCommand } from './commands/delete';
import { editCommand } from './commands/edit';
import { exportCommand } from './commands/export';
import { glossaryCommand } from './commands/glossary';
import { highlightCommand } from './commands/highlight';
import { highlightsCommand } from './commands/highlights';
import { historyCommand } from './commands/history';
import { jobsCommand } from './commands/jobs';
import { libraryCommand } from './commands/library';
import { recordCommand, recordingsCommand } from './commands/record';
import { redoCommand } from './commands/redo';
import { resumeCommand } from './commands/resume';
import { retryCommand } from './commands/retry';
import { revertCommand } from './commands/revert';
import { searchCommand } from './commands/search';
import { showCommand } from './commands/show';
import { storyCommand } from './commands/story';
import { transcribeCommand } from './commands/transcribe';
import { undoCommand } from './commands/undo';
import { voiceCommand } from './commands/voice';

/** Every command of the command line, in the order the help lists them. */
export const commandTable: readonly CliCommand[] = [
  transcribeCommand,
  jobsCommand,
  resumeCommand,
  retryCommand,
  showCommand,
  searchCommand,
  editCommand,
  historyCommand,
  undoCommand,
  redoCommand,
  revertCommand,
  deleteCommand,
  exportCommand,
  highlightCommand,
  highlightsCommand,
  storyCommand,
  glossaryCommand,
  recordCommand,
  recordingsCommand,
  catalogCommand,
  libraryCommand,
  askCommand,
  voiceCommand,
];
