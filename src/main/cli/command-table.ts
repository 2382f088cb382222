import type { CliCommand } from './command';

/**
 * Every command of the command line, in the order the help lists them: its name, and how to
 * load it. A command's module (and what it imports: the exports' docx and pdfkit, the voice
 * session, the glossary's CSV) is loaded only when that command runs or the overall help is
 * shown, which keeps a short command such as `jobs` quick to start.
 */
export interface CommandEntry {
  name: string;
  load: () => Promise<CliCommand>;
}

export const commandTable: readonly CommandEntry[] = [
  { name: 'transcribe', load: async () => (await import('./commands/transcribe')).transcribeCommand },
  { name: 'jobs', load: async () => (await import('./commands/jobs')).jobsCommand },
  { name: 'resume', load: async () => (await import('./commands/resume')).resumeCommand },
  { name: 'retry', load: async () => (await import('./commands/retry')).retryCommand },
  { name: 'show', load: async () => (await import('./commands/show')).showCommand },
  { name: 'search', load: async () => (await import('./commands/search')).searchCommand },
  { name: 'edit', load: async () => (await import('./commands/edit')).editCommand },
  { name: 'history', load: async () => (await import('./commands/history')).historyCommand },
  { name: 'undo', load: async () => (await import('./commands/undo')).undoCommand },
  { name: 'redo', load: async () => (await import('./commands/redo')).redoCommand },
  { name: 'revert', load: async () => (await import('./commands/revert')).revertCommand },
  { name: 'delete', load: async () => (await import('./commands/delete')).deleteCommand },
  { name: 'export', load: async () => (await import('./commands/export')).exportCommand },
  { name: 'highlight', load: async () => (await import('./commands/highlight')).highlightCommand },
  { name: 'highlights', load: async () => (await import('./commands/highlights')).highlightsCommand },
  { name: 'story', load: async () => (await import('./commands/story')).storyCommand },
  { name: 'glossary', load: async () => (await import('./commands/glossary')).glossaryCommand },
  { name: 'record', load: async () => (await import('./commands/record')).recordCommand },
  { name: 'recordings', load: async () => (await import('./commands/record')).recordingsCommand },
  { name: 'catalog', load: async () => (await import('./commands/catalog')).catalogCommand },
  { name: 'library', load: async () => (await import('./commands/library')).libraryCommand },
  { name: 'ask', load: async () => (await import('./commands/ask')).askCommand },
  { name: 'voice', load: async () => (await import('./commands/voice')).voiceCommand },
  { name: 'newsroom', load: async () => (await import('./commands/newsroom')).newsroomCommand },
];

/** The command called `name`, loaded; undefined when there is none. */
export async function loadCommand(name: string): Promise<CliCommand | undefined> {
  return commandTable.find((entry) => entry.name === name)?.load();
}

/** Every command, loaded, for the overall help. */
export function loadEveryCommand(): Promise<CliCommand[]> {
  return Promise.all(commandTable.map((entry) => entry.load()));
}
