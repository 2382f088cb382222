import { api } from '../lib/api';
import { problem, type Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';
import { OptionsEditor } from './options-editor.svelte';
import { GlossaryChoice } from './glossary-choice.svelte';
import { navigation } from './navigation.svelte';
import { settings } from './settings.svelte';
import { titleFromFileName, type Options } from './new-transcription-logic';

/** A recording chosen for transcription: a file picked or dropped, or a path the OS opened. */
export interface ChosenRecording {
  key: string;
  name: string;
  size: number;
  file?: File;
  path?: string;
}

/**
 * The New transcription form: the recordings chosen (picked, or dropped anywhere in the
 * window), a link, and the options. It lives outside the view so a drop on another view can
 * hand its files over before the view opens.
 */
class NewTranscriptionStore {
  recordings = $state<ChosenRecording[]>([]);
  url = $state('');
  editor = new OptionsEditor();
  /** The glossaries whose spellings go with the recordings (issue #21). */
  glossaryChoice = new GlossaryChoice();
  /** Whether files are being dragged over the window, for the drop overlay. */
  dragging = $state(false);
  submitting = $state(false);
  error = $state<Problem | undefined>(undefined);
  /** The recording the service or main refused, shown beside it where the user is looking. */
  refused = $state<{ recording: ChosenRecording; problem: Problem } | undefined>(undefined);
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
    this.add([...files].map((file) => ({ key: keyOf(file), name: file.name, size: file.size, file })));
  }

  removeRecording(index: number): void {
    if (this.refused?.recording === this.recordings[index]) this.refused = undefined;
    this.recordings = this.recordings.filter((_, i) => i !== index);
  }

  /** Recordings the OS opened with the app: they join the form, which opens; refusals say why. */
  receiveOpened(opened: {
    recordings: { path: string; name: string; size: number }[];
    refused: { name: string; message: string }[];
  }): void {
    this.add(opened.recordings.map((recording) => ({ key: `path\u0000${recording.path}`, ...recording })));
    if (opened.refused.length > 0)
      this.error = problem(opened.refused.map((refusal) => `${refusal.name}: ${refusal.message}`).join(' '));
    navigation.go('new');
  }

  private add(chosen: ChosenRecording[]): void {
    const known = new Set(this.recordings.map((recording) => recording.key));
    this.recordings = [...this.recordings, ...chosen.filter((recording) => !known.has(recording.key))];
    this.error = undefined;
    this.refused = undefined;
  }

  /** Files dropped anywhere in the window land here and open the view. */
  receiveDrop(files: Iterable<File>): void {
    this.dragging = false;
    this.addFiles(files);
    navigation.go('new');
  }

  choosePreset(name: string): void {
    this.preset = name;
    this.glossaryChoice.useDefaults();
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
    return this.editor.valid && (this.recordings.length > 0 || this.url.trim() !== '') && !this.submitting;
  }

  /** Creates one job per file (and one for the link); each shows in the library at once. */
  async submit(): Promise<void> {
    if (!this.canSubmit) return;
    this.submitting = true;
    this.error = undefined;
    this.refused = undefined;
    const options: Options = this.editor.snapshot();
    const glossaryIds = this.glossaryChoice.requestIds(this.preset);
    let current: ChosenRecording | undefined;
    try {
      for (const recording of [...this.recordings]) {
        current = recording;
        const path = recording.path ?? (await api.local.pathForFile(recording.file!));
        await api.transcripts.create({
          source: { kind: 'file', path },
          title: titleFromFileName(recording.name),
          options,
          glossaryIds,
        });
        this.recordings = this.recordings.filter((candidate) => candidate !== recording);
      }
      current = undefined;
      if (this.url.trim() !== '') {
        await api.transcripts.create({ source: { kind: 'url', url: this.url.trim() }, options, glossaryIds });
        this.url = '';
      }
      navigation.go('library');
    } catch (error) {
      // Files already submitted have left the list; what remains can be sent again.
      const failure = caught(error, 'transcripts.create');
      if (current) this.refused = { recording: current, problem: failure };
      else this.error = failure;
    } finally {
      this.submitting = false;
    }
  }
}

function keyOf(file: File): string {
  return `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
}

export const newTranscription = new NewTranscriptionStore();
