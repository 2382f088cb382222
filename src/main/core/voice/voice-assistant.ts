import { defaultSettings, type Settings } from '../../../shared/settings';
import type { Library } from '../library/library';
import { libraryTools, runTool, toolDefinitions, type LibraryTool } from '../library-tools/library-tools';
import { storyTools } from '../library-tools/story-tools';
import { transcribeFileTool, type TranscribeFileDeps } from './transcribe-file-tool';
import type { SessionConfig } from './voice-protocol';
import type { ToolRunner } from './voice-session';

/**
 * What the reporter's assistant is told, and the tools it gets: the library's, the stories'
 * (read one back, add a passage to one) and "transcribe a file".
 */

export const ASSISTANT_PROMPT =
  "You are Verbatim's voice assistant for a journalist who is often driving or walking. " +
  'Answer briefly in plain speech. Use the tools to find and quote what people said in the ' +
  "reporter's transcripts, always naming the speaker and the time, and never invent a quote.";

export type AssistantPreferences = Settings['voicePreferences'];

export const defaultAssistantPreferences: AssistantPreferences = defaultSettings.voicePreferences;

export function assistantTools(deps: TranscribeFileDeps): readonly LibraryTool[] {
  return [...libraryTools, ...storyTools, transcribeFileTool(deps)];
}

export function assistantConfig(
  preferences: Pick<AssistantPreferences, 'voice' | 'volume' | 'vadThreshold' | 'greeting'>,
  tools: readonly LibraryTool[],
): SessionConfig {
  return {
    systemPrompt: ASSISTANT_PROMPT,
    greeting: preferences.greeting,
    vadThreshold: preferences.vadThreshold,
    voice: preferences.voice,
    volume: preferences.volume,
    tools: toolDefinitions(tools),
  };
}

export function assistantToolRunner(library: Library, tools: readonly LibraryTool[]): ToolRunner {
  return (name, args) => runTool(library, name, args, tools);
}
