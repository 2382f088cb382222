import { api } from '../lib/api';
import { VerbatimError } from '../../../shared/errors';
import { OptionsEditor } from '../components/options/options-editor.svelte';
import { navigation } from './navigation.svelte';
import { settings } from './settings.svelte';
import { titleFromFileName, type Options } from './new-transcription-logic';

/**
 * The New transcription form: the recordings chosen (picked, or dropped anywhere in the
 * window), a link, and the options. It lives outside the view so a drop on another view can
 * hand its files over before the view opens.
 */
class NewTranscriptionStore {
  files = $state<File[]>([]);
  url = $state('');
  editor = new OptionsEditor();
  /** Whether files are being dragged over the window, for the drop overlay. */
  dragging = $state(false);
  submitting = $state(false);
  error = $state<string | undefined>(undefined);
  /** The recording the service or main refused, shown beside it where the user is looking. */
  refused = $state<{ file: File; message: string } | undefined>(undefined);
  /** The preset the options started from, '' for the defaults. */
  preset = $state('');
  private started = false;

  /** Starts from the user's default options the first time settings are known. */
  startFromDefaults(): void {
    if (this.started || !settings.loaded) return;
    this.started = true;
    this.editor.replace(settings.value.defaultOptions);
  }

  addFiles(files: Iterable<File>): void {
    const known = new Set(this.files.map(keyOf));
    this.files = [...this.files, ...[...files].filter((file) => !known.has(keyOf(file)))];
    this.error = undefined;
    this.refused = undefined;
  }

  removeFile(index: number): void {
    if (this.refused?.file === this.files[index]) this.refused = undefined;
    this.files = this.files.filter((_, i) => i !== index);
  }

  /** Files dropped anywhere in the window land here and open the view. */
  receiveDrop(files: Iterable<File>): void {
    this.dragging = false;
    this.addFiles(files);
    navigation.go('new');
  }

  choosePreset(name: string): void {
    this.preset = name;
    const preset = settings.value.presets.find((candidate) => candidate.name === name);
    this.editor.replace(preset ? preset.options : settings.value.defaultOptions);
  }

  async savePreset(name: string): Promise<void> {
    const options = this.editor.snapshot();
    const others = settings.value.presets.filter((preset) => preset.name !== name);
    await settings.update({ presets: [...$state.snapshot(others), { name, options }] });
    if (settings.saveState !== 'failed') this.preset = name;
  }

  get canSubmit(): boolean {
    return this.editor.valid && (this.files.length > 0 || this.url.trim() !== '') && !this.submitting;
  }

  /** Creates one job per file (and one for the link); each shows in the library at once. */
  async submit(): Promise<void> {
    if (!this.canSubmit) return;
    this.submitting = true;
    this.error = undefined;
    this.refused = undefined;
    const options: Options = this.editor.snapshot();
    let current: File | undefined;
    try {
      for (const file of [...this.files]) {
        current = file;
        const path = await api.local.pathForFile(file);
        await api.transcripts.create({
          source: { kind: 'file', path },
          title: titleFromFileName(file.name),
          options,
        });
        this.files = this.files.filter((candidate) => candidate !== file);
      }
      current = undefined;
      if (this.url.trim() !== '') {
        await api.transcripts.create({ source: { kind: 'url', url: this.url.trim() }, options });
        this.url = '';
      }
      navigation.go('library');
    } catch (error) {
      // Files already submitted have left the list; what remains can be sent again.
      const message =
        error instanceof VerbatimError
          ? error.message
          : error instanceof Error
            ? error.message
            : 'Verbatim could not start the transcription.';
      if (current) this.refused = { file: current, message };
      else this.error = message;
    } finally {
      this.submitting = false;
    }
  }
}

function keyOf(file: File): string {
  return `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
}

export const newTranscription = new NewTranscriptionStore();
