import type { CliCommand } from './command';
import { askCommand } from './commands/ask';
import { catalogCommand } from './commands/catalog';
import { deleteCommand } from './commands/delete';
import { exportCommand } from './commands/export';
import { jobsCommand } from './commands/jobs';
import { resumeCommand } from './commands/resume';
import { retryCommand } from './commands/retry';
import { searchCommand } from './commands/search';
import { showCommand } from './commands/show';
import { transcribeCommand } from './commands/transcribe';
import { voiceCommand } from './commands/voice';

/** Every command of the command line, in the order the help lists them. */
export const commandTable: readonly CliCommand[] = [
  transcribeCommand,
  jobsCommand,
  resumeCommand,
  retryCommand,
  showCommand,
  searchCommand,
  deleteCommand,
  exportCommand,
  catalogCommand,
  askCommand,
  voiceCommand,
];
