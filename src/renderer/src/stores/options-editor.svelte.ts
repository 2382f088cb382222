import { checkTranscriptionOptions, type OptionProblem } from '../../../shared/transcription/request-options';
import {
  getAtPath,
  problemsFor,
  setAtPath,
  unclaimedProblems,
  type Options,
} from './new-transcription-logic';

/** The option paths each group of the form has fields for. */
export const groupPaths = {
  Basics: [
    'language_code',
    'language_detection',
    'language_confidence_threshold',
    'language_detection_options',
    'speaker_labels',
    'speakers_expected',
    'speech_models',
  ],
  Analyses: [
    'auto_highlights',
    'entity_detection',
    'sentiment_analysis',
    'iab_categories',
    'content_safety',
    'content_safety_confidence',
    'auto_chapters',
    'summarization',
    'summary_model',
    'summary_type',
    'custom_topics',
    'topics',
    'speech_understanding',
  ],
  Privacy: [
    'redact_pii',
    'redact_pii_policies',
    'redact_pii_sub',
    'redact_pii_audio',
    'redact_pii_audio_quality',
    'redact_pii_audio_options',
    'redact_pii_return_unredacted',
  ],
  Advanced: [
    'keyterms_prompt',
    'prompt',
    'custom_spelling',
    'audio_start_from',
    'audio_end_at',
    'punctuate',
    'format_text',
    'disfluencies',
    'filter_profanity',
    'multichannel',
    'webhook_url',
    'webhook_auth_header_name',
    'webhook_auth_header_value',
  ],
} as const;
export type GroupName = keyof typeof groupPaths;

/** Every option path the form has a field for; problems elsewhere are listed at the top. */
export const fieldPaths: readonly string[] = Object.values(groupPaths).flat();

/**
 * One set of transcription options being edited, checked as it changes with the very rules
 * the core applies. Fields that hold text the validator cannot see yet (a timecode being
 * typed) report their own problems through `setLocalProblem`.
 */
export class OptionsEditor {
  value = $state<Options>({});
  /** Bumped when the options are replaced wholesale, so fields holding typed text restart. */
  version = $state(0);
  private local = $state<Record<string, string>>({});

  problems = $derived.by<OptionProblem[]>(() => {
    const checked = checkTranscriptionOptions(this.value);
    const own = Object.entries(this.local).map(([path, message]) => ({ path, message }));
    return [...(checked.ok ? [] : checked.problems), ...own];
  });
  valid = $derived(this.problems.length === 0);
  unclaimed = $derived(unclaimedProblems(this.problems, fieldPaths));

  constructor(initial: Options = {}) {
    this.value = $state.snapshot(initial);
  }

  get(path: string): unknown {
    return getAtPath(this.value, path);
  }

  set(path: string, value: unknown): void {
    this.value = setAtPath(this.value, path, value);
  }

  flag(path: string, fallback = false): boolean {
    const value = this.get(path);
    return typeof value === 'boolean' ? value : fallback;
  }

  /** A yes/no option: the service default is left out of the request. */
  setFlag(path: string, checked: boolean, fallback = false): void {
    this.set(path, checked === fallback ? undefined : checked);
  }

  text(path: string): string {
    const value = this.get(path);
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  }

  /** How many problems sit in a group, for its (possibly closed) heading. */
  problemCount(group: GroupName): number {
    return groupPaths[group].reduce((count, path) => count + this.problemsFor(path).length, 0);
  }

  problemsFor(path: string): string[] {
    return problemsFor(this.problems, path);
  }

  setLocalProblem(path: string, message: string | undefined): void {
    const next = { ...this.local };
    if (message === undefined) delete next[path];
    else next[path] = message;
    this.local = next;
  }

  replace(options: Options): void {
    this.value = $state.snapshot(options);
    this.local = {};
    this.version += 1;
  }

  snapshot(): Options {
    return $state.snapshot(this.value);
  }
}
