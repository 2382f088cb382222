import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { hasRecordingExtension } from '../../../shared/recording-file-extensions';
import { inspectRecording } from '../transcription/recording-file';

/** Recordings the OS handed the app, checked, for the New transcription form. */
export interface OpenedRecordings {
  recordings: { path: string; name: string; size: number }[];
  refused: { name: string; message: string }[];
}

/**
 * The recordings among a process's arguments: what Windows and Linux pass when a file is
 * opened with the app or dropped on its icon (the first launch's argv, or a second
 * instance's). The program, Chromium's switches and the app's own entry are not recordings.
 */
export function recordingArguments(
  argv: readonly string[],
  workingDirectory: string,
  isFile: (path: string) => boolean = (path) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false,
): string[] {
  return argv
    .slice(1)
    .filter((argument) => !argument.startsWith('-') && hasRecordingExtension(argument))
    .map((argument) => (isAbsolute(argument) ? argument : resolve(workingDirectory, argument)))
    .filter((path) => isFile(path));
}

/** Each path checked as New transcription checks a file; a file that is no recording says why. */
export async function inspectOpened(paths: readonly string[]): Promise<OpenedRecordings> {
  const opened: OpenedRecordings = { recordings: [], refused: [] };
  for (const path of new Set(paths)) {
    try {
      const info = await inspectRecording(path);
      opened.recordings.push({ path: info.path, name: info.name, size: info.size });
    } catch (error) {
      const name = path.split(/[/\\]/).pop() ?? path;
      opened.refused.push({ name, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return opened;
}
