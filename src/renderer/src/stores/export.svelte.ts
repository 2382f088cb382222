import { VerbatimError } from '../../../shared/errors';
import {
  rememberedExportSettings,
  type ExportFormat,
  type ExportSettings,
} from '../../../shared/export-options';
import type { ExportCapabilities, ExportItemResult } from '../../../shared/ipc/export-contract';
import type { Settings } from '../../../shared/settings';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';
import { withFormatExtension } from '../lib/export-form';

/** A deep copy, so editing the dialog's options never edits the remembered ones. */
const copy = (o: ExportSettings): ExportSettings => structuredClone<ExportSettings>($state.snapshot(o));

/** Joins a folder and a name with the folder's own separator (Windows or Unix). */
export function joinPath(folder: string, name: string): string {
  const separator = folder.includes('\\') && !folder.includes('/') ? '\\' : '/';
  return folder.endsWith(separator) ? `${folder}${name}` : `${folder}${separator}${name}`;
}

/**
 * What both export dialogs share: the format, its remembered options, and whether the
 * platform has OS dialogs (else the user types a path, starting in the default folder).
 */
class ExportChoices {
  format = $state<ExportFormat>('docx');
  options = $state<ExportSettings>(copy(rememberedExportSettings(undefined, 'docx')));
  capabilities = $state<ExportCapabilities | undefined>(undefined);
  busy = $state(false);
  /** What happened, for everyone: "Saved to …" or the reason it did not. */
  done = $state<string | undefined>(undefined);
  problem = $state<Problem | undefined>(undefined);
  protected remembered: Settings['exportOptions'] = {};

  async load(): Promise<void> {
    try {
      const [settings, capabilities] = await Promise.all([api.settings.get(), api.export.capabilities()]);
      this.remembered = settings.exportOptions;
      this.capabilities = capabilities;
      this.chooseFormat(this.format);
    } catch (error) {
      this.problem = caught(error, 'export.capabilities');
    }
  }

  chooseFormat(format: ExportFormat): void {
    this.format = format;
    this.options = copy(rememberedExportSettings(this.remembered, format));
  }

  /** What was just exported becomes this format's starting point while the window is open. */
  protected rememberLocally(): void {
    const { range: _range, ...kept } = copy(this.options);
    this.remembered = { ...this.remembered, [this.format]: kept };
  }
}

/** The reader's export of one transcript: preview of page one, then save. */
export class ExportDialogState extends ExportChoices {
  /** The selected words' span, when the reader has a selection; exported only if useRange. */
  range = $state<{ startMs: number; endMs: number } | undefined>(undefined);
  useRange = $state(false);
  preview = $state<string[]>([]);
  warnings = $state<string[]>([]);
  previewing = $state(false);
  previewProblem = $state<Problem | undefined>(undefined);
  path = $state('');
  /** The file already at the typed path, while the user decides whether to replace it. */
  replacing = $state<string | undefined>(undefined);
  private pathEdited = false;
  private fileName = '';
  private seq = 0;

  constructor(readonly id: string) {
    super();
  }

  request(): ExportSettings {
    return { ...copy(this.options), range: this.useRange ? this.range : undefined };
  }

  override chooseFormat(format: ExportFormat): void {
    // A path typed for the old format takes the new one's extension (not "interview.docx.srt").
    if (this.pathEdited) this.path = withFormatExtension(this.path, format);
    super.chooseFormat(format);
  }

  editPath(path: string): void {
    this.path = path;
    this.pathEdited = true;
  }

  async refreshPreview(): Promise<void> {
    const seq = ++this.seq;
    this.previewing = true;
    try {
      const preview = await api.export.preview({ id: this.id, format: this.format, options: this.request() });
      if (seq !== this.seq) return;
      this.preview = preview.lines;
      this.warnings = preview.warnings;
      this.previewProblem = undefined;
      this.fileName = preview.fileName;
      if (!this.pathEdited && this.capabilities)
        this.path = joinPath(this.capabilities.defaultFolder, this.fileName);
    } catch (error) {
      if (seq === this.seq) this.previewProblem = caught(error, 'export.preview');
    } finally {
      if (seq === this.seq) this.previewing = false;
    }
  }

  /** Keeps the file already there: the user picks another path. */
  keepExisting(): void {
    this.replacing = undefined;
  }

  async save(replace = false): Promise<void> {
    this.done = undefined;
    this.problem = undefined;
    this.replacing = undefined;
    this.busy = true;
    try {
      let path: string | null = this.path.trim();
      // The OS save dialog has already asked whether to replace a file it is pointed at.
      let confirmed = replace;
      if (this.capabilities?.nativeDialogs) {
        path = (
          await api.export.chooseFile({
            format: this.format,
            fileName: this.fileName || `transcript.${this.format}`,
          })
        ).path;
        if (path === null) return;
        confirmed = true;
      }
      const saved = await api.export.save({
        id: this.id,
        format: this.format,
        options: this.request(),
        path,
        replace: confirmed,
      });
      this.warnings = saved.warnings;
      this.done = `Saved to ${saved.path}`;
      this.rememberLocally();
    } catch (error) {
      if (error instanceof VerbatimError && error.code === 'conflict') this.replacing = error.message;
      else this.problem = caught(error, 'export.save');
    } finally {
      this.busy = false;
    }
  }
}

/** The library's export of many transcripts into one folder, with progress per transcript. */
export class BulkExportState extends ExportChoices {
  folder = $state('');
  results = $state<ExportItemResult[]>([]);
  total = $state(0);

  constructor(readonly ids: string[]) {
    super();
  }

  override async load(): Promise<void> {
    await super.load();
    if (this.capabilities && !this.folder) this.folder = this.capabilities.defaultFolder;
  }

  async chooseFolder(): Promise<void> {
    try {
      const chosen = await api.export.chooseFolder();
      if (chosen.path) this.folder = chosen.path;
    } catch (error) {
      this.problem = caught(error, 'export.chooseFolder');
    }
  }

  async run(): Promise<void> {
    const batchId = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
    this.results = [];
    this.total = this.ids.length;
    this.done = undefined;
    this.problem = undefined;
    this.busy = true;
    const stop = api.on('export.progress', (progress) => {
      if (progress.batchId === batchId) this.results = [...this.results, progress];
    });
    try {
      const { results } = await api.export.batch({
        batchId,
        ids: this.ids,
        format: this.format,
        options: copy(this.options),
        folder: this.folder.trim(),
      });
      this.results = results;
      const failed = results.filter((r) => !r.ok).length;
      this.done =
        failed === 0
          ? `Exported ${results.length} ${results.length === 1 ? 'transcript' : 'transcripts'} to ${this.folder.trim()}.`
          : `Exported ${results.length - failed} of ${results.length}; ${failed} failed (see below).`;
      this.rememberLocally();
    } catch (error) {
      this.problem = caught(error, 'export.batch');
    } finally {
      stop();
      this.busy = false;
    }
  }
}
