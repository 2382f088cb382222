import { inWriteTransaction, type Db } from './database';
import { VerbatimError } from '../../../shared/errors';
import type { Segment } from '../../../shared/library';
import { z } from 'zod';
import {
  sentenceChangeSchema,
  type CorrectionState,
  type EditIntent,
  type EditResult,
  type EditStep,
  type HistoryEntry,
  type SpeakerChoice,
} from '../../../shared/corrections/corrections';
import { planEdit, type PlanContext } from '../../../shared/corrections/edit-plan';
import { invertSteps } from '../../../shared/corrections/sentence-changes';
import type { JobStore } from './job-store';
import type { TranscriptContent } from './transcript-content';
import { json, rowMapping, value, type MappedRow } from './row-mapping';
import { statement } from './statement-cache';

/** An edit as the history lists it: what it did and whether it is undone. */
const editEntryFields = {
  id: value<number>('id'),
  kind: value<string>('kind'),
  summary: value<string>('summary'),
  createdAt: value<number>('created_at'),
  undoneAt: value<number | null>('undone_at'),
};
const editEntryRow = rowMapping(editEntryFields);
const editEntryColumns = 'id, kind, summary, created_at, undone_at';
/** An edit with its steps, checked as they are read: undo and redo replay them into the transcript. */
const editFields = { ...editEntryFields, steps: json('steps_json', z.array(z.array(sentenceChangeSchema))) };
export const editRow = rowMapping(editFields);
type EditRow = MappedRow<typeof editFields>;
const editColumns = `${editEntryColumns}, steps_json`;
/** The edits undo, redo and continued typing start from. */
const editQueries = {
  latest: `SELECT ${editColumns} FROM transcript_edits WHERE transcript_id = ? ORDER BY id DESC LIMIT 1`,
  latestInForce: `SELECT ${editColumns} FROM transcript_edits WHERE transcript_id = ? AND undone_at IS NULL ORDER BY id DESC LIMIT 1`,
  firstUndone: `SELECT ${editColumns} FROM transcript_edits WHERE transcript_id = ? AND undone_at IS NOT NULL ORDER BY id LIMIT 1`,
};
const paragraphCheckRow = rowMapping({
  paragraph: value<number>('paragraph'),
  checkedAt: value<number>('checked_at'),
  checkedBy: value<string | null>('checked_by'),
});

export interface EditOptions {
  /** The revision the journalist saw: an edit made against an older one is refused. */
  expectedRevision?: number | undefined;
  /** The edit this one continues (typing in the same turn): it joins it as one undo step. */
  continues?: number | undefined;
}

/**
 * Corrections: every edit is planned from what the journalist meant (shared/corrections),
 * applied to the `sentences` table in one transaction (the FTS5 triggers re-index only the
 * rewritten rows) and recorded with its sentence changes, so undo and redo replay them after
 * any restart. The service's sentences are copied to `machine_sentences` before the first edit
 * and never changed. Synchronous; the Library facade makes it async.
 */
export class CorrectionsStore {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobStore,
    private readonly content: TranscriptContent,
    private readonly now: () => number,
  ) {}

  edit(id: string, intent: EditIntent, options: EditOptions = {}): EditResult {
    return inWriteTransaction(this.db, () => {
      this.jobs.require(id);
      const revision = this.revision(id);
      if (options.expectedRevision !== undefined && options.expectedRevision !== revision)
        throw new VerbatimError(
          'conflict',
          'This transcript was changed somewhere else (another window or the command line). It has been reloaded; make the change again.',
        );
      const sentences = this.sentencesFor(id, intent);
      if (sentences.length === 0)
        throw new VerbatimError('invalid_input', 'This transcript has no text to correct yet.');
      const plan = planEdit(sentences, intent, this.planContext(id));
      if (plan.step.length === 0) return { editId: null, steps: [], replaced: 0, state: this.stateOf(id) };
      this.keepMachineSentences(id);
      this.applyStep(id, plan.step);
      const continued =
        options.continues !== undefined ? this.continuable(id, options.continues, intent) : null;
      let editId: number;
      if (continued) {
        const steps = [...continued.steps, plan.step];
        statement(
          this.db,
          'UPDATE transcript_edits SET steps_json = ?, summary = ?, created_at = ? WHERE id = ?',
        ).run(JSON.stringify(steps), plan.summary, this.now(), continued.id);
        editId = continued.id;
      } else {
        // A new edit ends the redo history, as in every editor.
        statement(
          this.db,
          'DELETE FROM transcript_edits WHERE transcript_id = ? AND undone_at IS NOT NULL',
        ).run(id);
        editId = Number(
          statement(
            this.db,
            'INSERT INTO transcript_edits (transcript_id, kind, summary, steps_json, created_at) VALUES (?, ?, ?, ?, ?)',
          ).run(id, intent.kind, plan.summary, JSON.stringify([plan.step]), this.now()).lastInsertRowid,
        );
      }
      this.bumpRevision(id);
      return { editId, steps: [plan.step], replaced: plan.replaced, state: this.stateOf(id) };
    });
  }

  undo(id: string): EditResult {
    return inWriteTransaction(this.db, () => {
      this.jobs.require(id);
      const last = this.editOf(id, 'latestInForce');
      if (!last) throw new VerbatimError('invalid_input', 'There is nothing to undo in this transcript.');
      const steps = invertSteps(last.steps);
      for (const step of steps) this.applyStep(id, step);
      statement(this.db, 'UPDATE transcript_edits SET undone_at = ? WHERE id = ?').run(this.now(), last.id);
      this.bumpRevision(id);
      return { editId: null, steps, replaced: 0, state: this.stateOf(id) };
    });
  }

  redo(id: string): EditResult {
    return inWriteTransaction(this.db, () => {
      this.jobs.require(id);
      const next = this.editOf(id, 'firstUndone');
      if (!next) throw new VerbatimError('invalid_input', 'There is nothing to redo in this transcript.');
      const { steps } = next;
      for (const step of steps) this.applyStep(id, step);
      statement(this.db, 'UPDATE transcript_edits SET undone_at = NULL WHERE id = ?').run(next.id);
      this.bumpRevision(id);
      return { editId: null, steps, replaced: 0, state: this.stateOf(id) };
    });
  }

  state(id: string): CorrectionState {
    this.jobs.require(id);
    return this.stateOf(id);
  }

  /** Every edit in force and every one undone (which Redo would bring back), oldest first. */
  history(id: string): HistoryEntry[] {
    this.jobs.require(id);
    const rows = statement(
      this.db,
      `SELECT ${editEntryColumns} FROM transcript_edits WHERE transcript_id = ? ORDER BY id`,
    ).all(id);
    return rows.map(editEntryRow.fromRow).map((edit) => ({
      id: edit.id,
      kind: edit.kind,
      summary: edit.summary,
      at: edit.createdAt,
      undone: edit.undoneAt !== null,
    }));
  }

  /** The service's sentences, as they were before any correction. */
  machineSentences(id: string): Segment[] {
    this.jobs.require(id);
    // Before the first edit the stored sentences are still the service's own.
    const kept = this.content.segmentsOf('machine_sentences', id);
    return kept.length > 0 ? kept : this.content.sentences(id);
  }

  /** Stamps a paragraph as checked against the audio now, or takes the stamp away. */
  setChecked(id: string, paragraph: number, checked: boolean): CorrectionState {
    return inWriteTransaction(this.db, () => {
      this.jobs.require(id);
      const paragraphs = this.content.paragraphCount(id);
      if (paragraph >= paragraphs)
        throw new VerbatimError(
          'invalid_input',
          `This transcript has ${paragraphs} paragraphs; there is no paragraph ${paragraph + 1}.`,
        );
      if (checked)
        statement(
          this.db,
          'INSERT INTO paragraph_checks (transcript_id, paragraph, checked_at) VALUES (?, ?, ?) ON CONFLICT (transcript_id, paragraph) DO UPDATE SET checked_at = excluded.checked_at, checked_by = NULL',
        ).run(id, paragraph, this.now());
      else
        statement(this.db, 'DELETE FROM paragraph_checks WHERE transcript_id = ? AND paragraph = ?').run(
          id,
          paragraph,
        );
      return this.stateOf(id);
    });
  }

  /** True once the journalist has made an edit that is in force. */
  hasCorrections(id: string): boolean {
    return (
      statement(
        this.db,
        'SELECT 1 FROM transcript_edits WHERE transcript_id = ? AND undone_at IS NULL LIMIT 1',
      ).get(id) !== undefined
    );
  }

  private stateOf(id: string): CorrectionState {
    const last = statement(
      this.db,
      'SELECT summary FROM transcript_edits WHERE transcript_id = ? AND undone_at IS NULL ORDER BY id DESC LIMIT 1',
    ).get(id) as { summary: string } | undefined;
    const next = statement(
      this.db,
      'SELECT summary FROM transcript_edits WHERE transcript_id = ? AND undone_at IS NOT NULL ORDER BY id LIMIT 1',
    ).get(id) as { summary: string } | undefined;
    const applied = statement(
      this.db,
      'SELECT count(*) AS n FROM transcript_edits WHERE transcript_id = ? AND undone_at IS NULL',
    ).get(id) as { n: number };
    const checks = statement(
      this.db,
      'SELECT paragraph, checked_at, checked_by FROM paragraph_checks WHERE transcript_id = ? ORDER BY paragraph',
    ).all(id);
    return {
      revision: this.revision(id),
      undo: last?.summary ?? null,
      redo: next?.summary ?? null,
      applied: applied.n,
      checks: checks.map(paragraphCheckRow.fromRow),
    };
  }

  private revision(id: string): number {
    return (
      statement(this.db, 'SELECT corrections_revision AS r FROM transcripts WHERE id = ?').get(id) as {
        r: number;
      }
    ).r;
  }

  private bumpRevision(id: string): void {
    statement(
      this.db,
      'UPDATE transcripts SET corrections_revision = corrections_revision + 1, updated_at = ? WHERE id = ?',
    ).run(this.now(), id);
  }

  /** The last edit, when `editId` names it, it is in force, nothing was undone after it, and it is the same kind. */
  private continuable(id: string, editId: number, intent: EditIntent): EditRow | null {
    const last = this.editOf(id, 'latest');
    return last && last.id === editId && last.undoneAt === null && last.kind === intent.kind ? last : null;
  }

  private editOf(id: string, which: keyof typeof editQueries): EditRow | undefined {
    const row = statement(this.db, editQueries[which]).get(id);
    return row === undefined ? undefined : editRow.fromRow(row);
  }

  /**
   * The sentences an intent needs, as an array as long as the transcript with only the needed
   * positions filled: a one-word fix in a three-hour transcript reads one turn, not 3,000 rows.
   */
  private sentencesFor(id: string, intent: EditIntent): Segment[] {
    const total = this.content.sentenceCount(id);
    const sparse: Segment[] = new Array<Segment>(total);
    const fill = (rows: Segment[]): Segment[] => {
      for (const row of rows) sparse[row.position] = row;
      return sparse;
    };
    switch (intent.kind) {
      case 'text':
      case 'speaker':
        return fill(this.content.sentenceRange(id, intent.from, intent.from + intent.count));
      case 'split':
        return fill(this.content.turnRows(id, intent.position));
      case 'merge':
        return fill([
          ...this.content.sentenceRange(id, intent.position - 1, intent.position),
          ...this.content.turnRows(id, intent.position),
        ]);
      case 'replace':
        return intent.at
          ? fill(this.content.sentenceRange(id, intent.at.position, intent.at.position + 1))
          : this.content.sentences(id);
      case 'fixes':
      case 'revert':
        return this.content.sentences(id);
    }
  }

  private planContext(id: string): PlanContext {
    return {
      paragraphs: () => this.content.paragraphSpans(id),
      machineSentences: () => this.machineSentences(id),
      speakerLabel: (choice) => this.speakerLabel(id, choice),
      speakerName: (label) =>
        (
          statement(this.db, 'SELECT name FROM speakers WHERE transcript_id = ? AND label = ?').get(
            id,
            label,
          ) as { name: string } | undefined
        )?.name ?? `Speaker ${label}`,
    };
  }

  /** An existing speaker's label, or the next free letter for a new speaker, named at once. */
  private speakerLabel(id: string, choice: SpeakerChoice): string {
    const labels = new Set(
      (
        statement(this.db, 'SELECT label FROM speakers WHERE transcript_id = ?').all(id) as {
          label: string;
        }[]
      ).map((row) => row.label),
    );
    if ('label' in choice) {
      if (!labels.has(choice.label))
        throw new VerbatimError('invalid_input', `There is no speaker ${choice.label} in this transcript.`);
      return choice.label;
    }
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');
    const label = letters.find((letter) => !labels.has(letter)) ?? `S${labels.size + 1}`;
    statement(this.db, 'INSERT INTO speakers (transcript_id, label, name) VALUES (?, ?, ?)').run(
      id,
      label,
      choice.newName.trim(),
    );
    return label;
  }

  private hasMachineCopy(id: string): boolean {
    return (
      statement(this.db, 'SELECT 1 FROM machine_sentences WHERE transcript_id = ? LIMIT 1').get(id) !==
      undefined
    );
  }

  /** Before the first edit, the service's sentences are copied aside, once. */
  private keepMachineSentences(id: string): void {
    if (this.hasMachineCopy(id)) return;
    statement(
      this.db,
      `INSERT INTO machine_sentences (transcript_id, position, start_ms, end_ms, speaker, confidence, text, words_json)
         SELECT transcript_id, position, start_ms, end_ms, speaker, confidence, text, words_json
         FROM sentences WHERE transcript_id = ?`,
    ).run(id);
  }

  /**
   * Applies one step to the stored sentences, last change first so earlier positions hold.
   * The rows a change removes must be the ones it recorded; anything else means the history
   * no longer fits the transcript, and nothing is changed.
   */
  private applyStep(id: string, step: EditStep): void {
    const select = statement(
      this.db,
      'SELECT id, text FROM sentences WHERE transcript_id = ? AND position >= ? AND position < ? ORDER BY position',
    );
    const remove = statement(this.db, 'DELETE FROM sentences WHERE id = ?');
    const shift = statement(
      this.db,
      'UPDATE sentences SET position = position + ? WHERE transcript_id = ? AND position >= ?',
    );
    for (const change of [...step].reverse()) {
      const rows = select.all(id, change.position, change.position + change.removed.length) as {
        id: number;
        text: string;
      }[];
      if (
        rows.length !== change.removed.length ||
        rows.some((row, i) => row.text !== change.removed[i]?.text)
      )
        throw new VerbatimError(
          'conflict',
          'The stored corrections no longer fit this transcript, so nothing was changed. Reload it and try again.',
        );
      for (const row of rows) remove.run(row.id);
      const delta = change.inserted.length - change.removed.length;
      if (delta !== 0) shift.run(delta, id, change.position + change.removed.length);
      this.content.insertSentences(id, change.position, change.inserted);
    }
  }
}
