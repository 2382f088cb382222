import { VerbatimError } from '../../../shared/errors';
import type { ExportCapabilities } from '../../../shared/ipc/export-contract';
import type { StoryClipsSummary } from '../../../shared/ipc/story-export-contract';
import {
  citationTemplateProblem,
  defaultCitationTemplate,
  type StoryExportFormat,
} from '../../../shared/story-export-options';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';
import { joinPath } from './export.svelte';
import { storyFileName } from '../lib/highlight-logic';

/**
 * Exporting one story (issue #20): the format, the citation style (checked as typed, with the
 * same words main uses), a source list, where to save and optionally a folder of clips. Where the
 * platform has OS dialogs they choose the paths; elsewhere the journalist types them.
 */
export class StoryExportState {
  format = $state<StoryExportFormat>('docx');
  citation = $state(defaultCitationTemplate);
  sourceList = $state(true);
  path = $state('');
  withClips = $state(false);
  clipsFolder = $state('');
  capabilities = $state.raw<ExportCapabilities | undefined>(undefined);
  busy = $state(false);
  problem = $state<Problem | undefined>(undefined);
  /** A file is already at the path: its sentence, until the journalist replaces it or picks another. */
  replacing = $state<string | undefined>(undefined);
  done = $state<string | undefined>(undefined);
  warnings = $state.raw<string[]>([]);
  clips = $state.raw<StoryClipsSummary | null>(null);
  private pathEdited = false;

  citationProblem = $derived(citationTemplateProblem(this.citation));

  constructor(
    readonly storyId: number,
    readonly storyName: string,
  ) {}

  async load(): Promise<void> {
    try {
      this.capabilities = await api.export.capabilities();
      this.suggestPath();
      this.clipsFolder = joinPath(
        this.capabilities.defaultFolder,
        `${storyFileName(this.storyName, 'txt').slice(0, -4)} clips`,
      );
    } catch (error) {
      this.problem = caught(error, 'export.capabilities');
    }
  }

  setFormat(format: StoryExportFormat): void {
    this.format = format;
    this.suggestPath();
  }

  setPath(path: string): void {
    this.path = path;
    this.pathEdited = true;
  }

  private suggestPath(): void {
    if (this.pathEdited || !this.capabilities) return;
    this.path = joinPath(this.capabilities.defaultFolder, storyFileName(this.storyName, this.format));
  }

  async chooseClipsFolder(): Promise<void> {
    try {
      const chosen = await api.export.chooseFolder();
      if (chosen.path) this.clipsFolder = chosen.path;
    } catch (error) {
      this.problem = caught(error, 'export.chooseFolder');
    }
  }

  async save(replace = false): Promise<void> {
    if (this.citationProblem) return;
    this.done = undefined;
    this.problem = undefined;
    this.replacing = undefined;
    this.busy = true;
    try {
      let path: string | null = this.path.trim();
      let confirmed = replace;
      if (this.capabilities?.nativeDialogs) {
        path = (
          await api.export.chooseFile({
            format: this.format,
            fileName: storyFileName(this.storyName, this.format),
          })
        ).path;
        if (path === null) return;
        // The OS save dialog has already asked whether to replace a file there.
        confirmed = true;
      }
      const saved = await api.stories.export({
        id: this.storyId,
        format: this.format,
        path,
        options: { citation: this.citation, sourceList: this.sourceList },
        replace: confirmed,
        ...(this.withClips && this.clipsFolder.trim() ? { clipsFolder: this.clipsFolder.trim() } : {}),
      });
      this.warnings = saved.warnings;
      this.clips = saved.clips;
      this.done = `Saved to ${saved.path}`;
    } catch (error) {
      if (error instanceof VerbatimError && error.code === 'conflict') this.replacing = error.message;
      else this.problem = caught(error, 'stories.export');
    } finally {
      this.busy = false;
    }
  }
}
