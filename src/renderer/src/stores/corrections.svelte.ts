import type {
  CorrectionState,
  EditIntent,
  EditResult,
  EditStep,
  SpeakerChoice,
} from '../../../shared/corrections/corrections';
import { learnedFromWords, type LearnedSpelling } from '../../../shared/glossary/learned-spellings';
import { planEdit, type PlanContext } from '../../../shared/corrections/edit-plan';
import { applyStep, invertSteps } from '../../../shared/corrections/sentence-changes';
import { jsonEqual } from '../../../shared/json-equal';
import { isVerbatimError } from '../../../shared/errors';
import type { TranscriptDetail } from '../../../shared/ipc/contract';
import type { Segment } from '../../../shared/library';
import { api } from '../lib/api';
import { problem, type Problem } from '../lib/error-message';
import { buildModel, patchModel, type ReaderModel, type Turn } from '../lib/reader-model';
import { caught } from '../lib/report-problem';

/** What the corrections patch: the open transcript (TranscriptStore is one). */
export interface CorrectionsHost {
  readonly id: string;
  detail: TranscriptDetail | undefined;
  model: ReaderModel | undefined;
  notice: string;
  error: Problem | undefined;
  load(): Promise<void>;
}

/** Typing stopped this long ago: what was typed is stored (a crash loses at most one word). */
export const autosaveMs = 1000;

/**
 * The turn being retyped: which sentences it replaces, the text last stored, and the edit the
 * next commit continues, so a whole session of typing in one turn is one undo step.
 */
export class TurnEdit {
  /** Set while leaving the turn: the text shows as typed, not editable, until it is stored. */
  leaving = $state(false);
  /** Why the last commit failed; the typed text stays in the turn. */
  failure = $state<string | undefined>(undefined);
  editId: number | undefined = undefined;
  /** The text as typed now, given by the editor while it is open. */
  read: () => string = () => this.stored;

  constructor(
    /** The turn's index in the model; the editor is drawn in its place. */
    readonly turn: number,
    public from: number,
    public count: number,
    /** The turn's text as stored: typing that comes back to it sends nothing. */
    public stored: string,
    /** Where the caret goes when the editor opens (a character offset in the text). */
    readonly caret: number,
    /** The end of the selection carried into the editor (the caret when nothing is selected). */
    readonly caretEnd: number = caret,
  ) {
    this.original = stored;
  }

  /** The turn's text when the editor opened: what the journalist respelled is found against it. */
  readonly original: string;

  /** Text typed but not stored, shown when the editor opens again after a failed commit. */
  draft: string | undefined = undefined;

  /** The keystroke that opened the editor, applied once it is there (as the browser would have). */
  firstInput: { text: string } | { command: 'delete' | 'forwardDelete' } | undefined = undefined;
}

/**
 * The correction workspace of one open transcript: retyping a turn with autosave, speakers,
 * undo and redo, the machine transcript and reverting a paragraph. Every edit goes through one
 * queue, so each is sent against the revision the previous one left, and its answer patches
 * the sentences in place (applyStep) rather than reloading 30,000 words.
 */
export class Corrections {
  state = $state.raw<CorrectionState | undefined>(undefined);
  editing = $state.raw<TurnEdit | undefined>(undefined);
  /** The service's words, shown read-only instead of the corrected ones. */
  machine = $state.raw<ReaderModel | undefined>(undefined);
  showingMachine = $state(false);
  /**
   * Words the journalist respelled in this transcript (a name typed over what the service heard),
   * newest last, for the reader to offer "Add to glossary" (issue #21); the offer hides those a
   * glossary spells already.
   */
  learned = $state.raw<LearnedSpelling[]>([]);

  private queue: Promise<unknown> = Promise.resolve();
  /** Edits queued or on their way: a change is painted before main answers only when none is. */
  private inFlight = 0;
  /**
   * The last edit, when it was one commit painted before main answered and nothing has changed
   * since: its undo can be painted at once too, from the words as they were (see history).
   */
  private undoable: (ShownChange & { after: ReaderModel; revision: number }) | undefined;

  constructor(private readonly host: CorrectionsHost) {}

  /** Called with every fresh transcript (load and reload). */
  loaded(detail: TranscriptDetail): void {
    this.state = detail.corrections;
    this.machine = undefined;
  }

  /** Opens the editor on a turn, the caret at `caret` characters into its text. */
  startEditing(turn: Turn, caret = 0, caretEnd = caret): TurnEdit | undefined {
    if (this.showingMachine) return undefined;
    if (this.editing?.turn === turn.index) return this.editing;
    if (this.editing) return undefined;
    this.editing = new TurnEdit(
      turn.index,
      turn.firstSentence,
      turn.sentenceCount,
      turn.text,
      caret,
      Math.max(caret, caretEnd),
    );
    return this.editing;
  }

  /**
   * Stores the turn's text as typed (autosave, the play/pause key). True once it is stored, or
   * when nothing changed; false when it failed (the editor keeps the text and says why).
   * `shown` is the change already painted by `finishEditing` before main answered.
   */
  commitText(edit: TurnEdit, text: string, shown?: ShownChange): Promise<boolean> {
    return this.enqueue(async () => {
      if (this.editing !== edit && !shown) return false;
      const typed = normalise(text);
      if (typed === edit.stored || edit.count === 0) return true;
      try {
        const continues = edit.editId;
        const result = await api.corrections.edit({
          id: this.host.id,
          intent: { kind: 'text', from: edit.from, count: edit.count, text: typed },
          expectedRevision: this.state?.revision,
          continues,
        });
        edit.editId = result.editId ?? undefined;
        edit.stored = typed;
        edit.failure = undefined;
        // The turn's sentences stay where they were; only their number can change.
        for (const step of result.steps)
          for (const change of step) edit.count += change.inserted.length - change.removed.length;
        if (shown && jsonEqual(result.steps, [shown.step])) {
          this.keepState(result);
          // One commit, all of the edit: its undo puts back exactly the words painted over.
          if (continues === undefined && this.host.model)
            this.undoable = { ...shown, after: this.host.model, revision: result.state.revision };
        } else {
          if (shown) this.unshow(shown);
          this.applyResult(result);
        }
        return true;
      } catch (error) {
        edit.leaving = false;
        if (shown) {
          // What was painted was never stored: the words go back, and the typing with them.
          this.unshow(shown);
          edit.draft = typed;
          this.editing = edit;
        }
        if (isVerbatimError(error) && error.code === 'conflict') {
          await this.reloadAfterConflict();
          // The typed text is kept; the turn is taken again as the reloaded transcript has it.
          const turn = this.host.model?.turns[edit.turn];
          if (turn) {
            edit.from = turn.firstSentence;
            edit.count = turn.sentenceCount;
            edit.stored = turn.text;
          }
          edit.editId = undefined;
          edit.failure =
            'This transcript was changed somewhere else, so it was reloaded. What you typed is still here: press Enter to save it over the new version.';
        } else {
          edit.failure = `Not saved: ${caught(error, 'corrections.edit').message} What you typed is still here; press Enter to try again.`;
        }
        return false;
      }
    });
  }

  /**
   * Stores the turn being typed now, not when autosave would (a quit asks), and resolves once
   * every edit on its way is answered. The editor stays open on what was typed.
   */
  async flush(): Promise<void> {
    const edit = this.editing;
    // Queued last, the commit is answered after every edit before it.
    if (edit && !edit.leaving) await this.commitText(edit, edit.read());
    else await this.queue;
  }

  /**
   * Leaves the turn: stores the text, then shows it as words again. Stays open if it failed.
   * When no other edit is on its way, the corrected words are shown at once (the same pure
   * planner main uses predicts them exactly) and main's answer only confirms them, so the turn
   * is repainted within a frame of Enter instead of after a round trip.
   */
  async finishEditing(edit: TurnEdit, text: string): Promise<boolean> {
    edit.leaving = true;
    const shown = this.inFlight === 0 ? this.show(edit, text) : undefined;
    if (shown) this.editing = undefined;
    const stored = await this.commitText(edit, text, shown);
    if (stored && (this.editing === edit || shown)) {
      if (this.editing === edit) this.editing = undefined;
      if (edit.editId !== undefined) this.host.notice = 'Correction saved. Ctrl+Z undoes it.';
      this.learn(edit.original, edit.stored);
    }
    return stored;
  }

  /** Keeps what was respelled between two versions of a turn, once each. */
  private learn(before: string, after: string): void {
    const found = learnedFromWords(before.split(/\s+/), after.split(/\s+/)).filter(
      (spelling) =>
        !this.learned.some(
          (known) => known.spelling === spelling.spelling && known.misheard === spelling.misheard,
        ),
    );
    if (found.length > 0) this.learned = [...this.learned, ...found];
  }

  /** The journalist added a respelling to a glossary, or said no to keeping it. */
  forget(spelling: LearnedSpelling): void {
    this.learned = this.learned.filter((known) => known !== spelling);
  }

  /**
   * Runs an edit made elsewhere in the reader (find and replace) in the same queue as every
   * other, so it is sent against the revision the edit before it left. The answer, or
   * undefined when it failed (the failure is already shown).
   */
  run(intent: EditIntent, context = 'corrections.edit'): Promise<EditResult | undefined> {
    return this.enqueue(async () => {
      this.host.error = undefined;
      try {
        const result = await api.corrections.edit({
          id: this.host.id,
          intent,
          expectedRevision: this.state?.revision,
        });
        this.applyResult(result);
        return result;
      } catch (error) {
        await this.failed(error, context);
        return undefined;
      }
    });
  }

  /** Takes a new state from main that changed no words (a paragraph stamped as checked). */
  takeState(state: CorrectionState): void {
    this.state = state;
    const detail = this.host.detail;
    if (detail) this.host.detail = { ...detail, corrections: state };
  }

  /** Gives sentences, or a whole turn, to another speaker (or a new one). */
  setSpeaker(from: number, count: number, speaker: SpeakerChoice): Promise<boolean> {
    return this.edit({ kind: 'speaker', from, count, speaker }, 'Speaker changed. Ctrl+Z undoes it.');
  }

  /** From word `word` of sentence `position` to the end of the turn, another speaker talks. */
  split(position: number, word: number, speaker: SpeakerChoice): Promise<boolean> {
    return this.edit({ kind: 'split', position, word, speaker }, 'Turn split. Ctrl+Z undoes it.');
  }

  /** The turn that starts at sentence `position` joins the one before it. */
  merge(position: number): Promise<boolean> {
    return this.edit({ kind: 'merge', position }, 'Turns merged. Ctrl+Z undoes it.');
  }

  revertParagraph(paragraph: number): Promise<boolean> {
    return this.edit(
      { kind: 'revert', paragraph },
      `Paragraph ${paragraph + 1} is back to the machine transcript. Ctrl+Z brings your corrections back.`,
    );
  }

  /** Undoes the last stored edit; typing still open in a turn is stored first, so it is that. */
  async undo(): Promise<boolean> {
    if (this.editing && !(await this.finishEditing(this.editing, this.editing.read()))) return false;
    return this.history('undo');
  }

  async redo(): Promise<boolean> {
    if (this.editing && !(await this.finishEditing(this.editing, this.editing.read()))) return false;
    return this.history('redo');
  }

  /** Shows the service's words (read-only) or the corrected ones again. */
  async toggleMachine(): Promise<void> {
    if (this.showingMachine) {
      this.showingMachine = false;
      return;
    }
    const detail = this.host.detail;
    if (!detail) return;
    try {
      if (!this.machine) {
        const sentences = await api.corrections.machine({ id: this.host.id });
        this.machine = buildModel(sentences, detail.paragraphs);
      }
      this.showingMachine = true;
    } catch (error) {
      this.host.error = caught(error, 'corrections.machine');
    }
  }

  /** The paragraph (index in detail.paragraphs) a moment falls in: the last that starts at or before it. */
  paragraphAt(ms: number): number | undefined {
    const paragraphs = this.host.detail?.paragraphs ?? [];
    let found: number | undefined;
    for (let index = 0; index < paragraphs.length; index++) {
      if ((paragraphs[index]?.startMs ?? Infinity) <= ms) found = index;
      else break;
    }
    return found ?? (paragraphs.length ? 0 : undefined);
  }

  private history(action: 'undo' | 'redo'): Promise<boolean> {
    const label = action === 'undo' ? this.state?.undo : this.state?.redo;
    return this.enqueue(async () => {
      if (!(action === 'undo' ? this.state?.undo : this.state?.redo)) {
        this.host.notice = action === 'undo' ? 'Nothing to undo.' : 'Nothing to redo.';
        return false;
      }
      this.host.error = undefined;
      const painted = action === 'undo' ? this.paintUndo() : undefined;
      try {
        const result = await api.corrections[action]({ id: this.host.id });
        if (painted && jsonEqual(result.steps, invertSteps([painted.step]))) this.keepState(result);
        else {
          if (painted) this.unshow(painted);
          this.applyResult(result);
        }
        this.host.notice = `${action === 'undo' ? 'Undone' : 'Redone'}: ${label ?? ''}`;
        return true;
      } catch (error) {
        if (painted) this.unshow(painted);
        await this.failed(error, `corrections.${action}`);
        return false;
      }
    });
  }

  private edit(intent: EditIntent, success: string): Promise<boolean> {
    return this.enqueue(async () => {
      this.host.error = undefined;
      try {
        this.applyResult(
          await api.corrections.edit({ id: this.host.id, intent, expectedRevision: this.state?.revision }),
        );
        this.host.notice = success;
        return true;
      } catch (error) {
        await this.failed(error, 'corrections.edit');
        return false;
      }
    });
  }

  private async failed(error: unknown, context: string): Promise<void> {
    if (isVerbatimError(error) && error.code === 'conflict') {
      await this.reloadAfterConflict();
      this.host.error = problem(
        'This transcript was changed somewhere else (another window or the command line), so it was reloaded. Nothing was changed: try again on the text as it is now.',
      );
      return;
    }
    this.host.error = caught(error, context);
  }

  private async reloadAfterConflict(): Promise<void> {
    await this.host.load();
  }

  /**
   * Patches the sentences shown with an answer's steps. A step of one change (typing, a
   * speaker, a split, a merge, a revert) patches the model around it; a step of many (replace
   * all) rebuilds it once.
   */
  applyResult(result: EditResult): void {
    this.keepState(result);
    for (const step of result.steps) this.patch(step);
    // An open editor (whose commit failed) follows its turn if other edits moved it.
    const edit = this.editing;
    const turn = edit ? this.host.model?.turns[edit.turn] : undefined;
    if (edit && turn && edit.stored === turn.text) {
      edit.from = turn.firstSentence;
      edit.count = turn.sentenceCount;
    }
  }

  private keepState(result: EditResult): void {
    this.takeState(result.state);
  }

  /**
   * Paints the undo of the last edit before main answers, when that edit was one commit painted
   * the same way and nothing changed since (same revision, the same model on screen): the words
   * as they were are already at hand, so the undo shows in the frame of the key press rather
   * than after a round trip to main (issue #33). Returns what to put back if main answers
   * otherwise (as `unshow` takes it); undefined when nothing was painted.
   */
  private paintUndo(): ShownChange | undefined {
    const undoable = this.undoable;
    this.undoable = undefined;
    const detail = this.host.detail;
    if (
      !undoable ||
      !detail ||
      this.state?.revision !== undoable.revision ||
      this.host.model !== undoable.after
    )
      return undefined;
    this.host.detail = { ...detail, sentences: undoable.sentences };
    this.host.model = undoable.model;
    return { step: undoable.step, sentences: detail.sentences, model: undoable.after };
  }

  private patch(step: EditStep): void {
    const detail = this.host.detail;
    if (!detail || step.length === 0) return;
    const sentences: Segment[] = applyStep(detail.sentences, step);
    const [only] = step;
    this.host.model =
      step.length === 1 && only && this.host.model
        ? patchModel(this.host.model, sentences, detail.paragraphs, {
            position: only.position,
            removed: only.removed.length,
            inserted: only.inserted.length,
          })
        : buildModel(sentences, detail.paragraphs);
    this.host.detail = { ...detail, sentences };
  }

  /** Paints the change typing will make before main confirms it; undefined when there is none. */
  private show(edit: TurnEdit, text: string): ShownChange | undefined {
    const detail = this.host.detail;
    const model = this.host.model;
    const typed = normalise(text);
    if (!detail || !model || typed === edit.stored || edit.count === 0) return undefined;
    let step: EditStep;
    try {
      step = planEdit(
        detail.sentences,
        { kind: 'text', from: edit.from, count: edit.count, text: typed },
        noContext,
      ).step;
    } catch {
      return undefined; // main will say what is wrong
    }
    if (step.length === 0) return undefined;
    const shown = { step, sentences: detail.sentences, model };
    this.patch(step);
    return shown;
  }

  private unshow(shown: ShownChange): void {
    const detail = this.host.detail;
    if (detail) this.host.detail = { ...detail, sentences: shown.sentences };
    this.host.model = shown.model;
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    this.inFlight++;
    const counted = async (): Promise<T> => {
      try {
        return await task();
      } finally {
        this.inFlight--;
      }
    };
    const run = this.queue.then(counted, counted);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** A change painted before main confirmed it, with what was shown before, to put back if it fails. */
interface ShownChange {
  step: EditStep;
  sentences: Segment[];
  model: ReaderModel;
}

/** Typed text as words are joined: newlines (a paste) and runs of spaces are single spaces. */
function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A text edit needs nothing of the context: only what speakers, splits and reverts read. */
const noContext: PlanContext = {
  paragraphs: () => [],
  machineSentences: () => [],
  speakerLabel: () => {
    throw new Error('A text edit names no speaker.');
  },
  speakerName: (label) => label,
};
