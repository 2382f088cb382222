import { Signal } from '../../base/signal';
import { VerbatimError } from '../../../shared/errors';
import {
  defaultGlossaryIds,
  newGlossaryEntrySchema,
  type Glossary,
  type GlossaryEntry,
  type NewGlossaryEntry,
} from '../../../shared/glossary/glossary';
import {
  glossaryContribution,
  withGlossaries,
  type GlossaryContribution,
} from '../../../shared/glossary/glossary-request';
import {
  checkTranscriptionOptions,
  type TranscriptionOptions,
} from '../../../shared/transcription/request-options';
import { glossaryFromCsv, glossaryToCsv } from './glossary-csv';
import type { GlossaryStore, GlossaryEntryChange, GlossaryImport } from '../library/glossary-store';
import { sharedEntryOf, type NewsroomGlossaryStore } from '../library/newsroom-glossary-store';
import { settle } from '../../base/settle';

/**
 * The newsroom's glossaries (issue #21) as the app, the web host and the CLI use them: the
 * store made async (as the Library is), CSV in and out, what a set of glossaries contributes to
 * a transcription, and `changed` announced after every change, whoever made it, so every
 * window's glossary view and New transcription form stay current.
 */
export class Glossaries {
  readonly changed = new Signal<void>();
  constructor(private readonly store: GlossaryStore) {}

  list(): Promise<Glossary[]> {
    return settle(() => this.store.list());
  }

  named(name: string, options: { create?: boolean } = {}): Promise<Glossary> {
    const find = (): Glossary => this.store.named(name, options);
    return options.create ? this.changing(find) : settle(find);
  }

  create(name: string): Promise<Glossary> {
    return this.changing(() => this.store.create(name));
  }

  rename(id: number, name: string): Promise<Glossary> {
    return this.changing(() => this.store.rename(id, name));
  }

  setDefaults(id: number, defaults: { usedByDefault?: boolean; presets?: string[] }): Promise<Glossary> {
    return this.changing(() => this.store.setDefaults(id, defaults));
  }

  delete(id: number): Promise<Glossary> {
    return this.changing(() => this.store.delete(id));
  }

  entries(filter: { glossaryId?: number; query?: string } = {}): Promise<GlossaryEntry[]> {
    return settle(() => this.store.entries(filter));
  }

  /**
   * A spelling the glossary has already gains the new misheard forms, kind and note, unless
   * `merge` is false: then it is refused (`conflict`) with a sentence naming the entry there.
   */
  add(
    glossaryId: number,
    entry: NewGlossaryEntry,
    options: { merge?: boolean | undefined } = {},
  ): Promise<{ entry: GlossaryEntry; created: boolean }> {
    return this.changing(() => this.store.add(glossaryId, entry, options));
  }

  /** Where a spelling is already, ignoring case: each glossary that has it, with its entry. */
  sameSpelling(term: string): Promise<{ glossary: Glossary; entry: GlossaryEntry }[]> {
    return settle(() => this.store.sameSpelling(term));
  }

  update(id: number, change: GlossaryEntryChange): Promise<GlossaryEntry> {
    return this.changing(() => this.store.update(id, change));
  }

  remove(id: number): Promise<GlossaryEntry> {
    return this.changing(() => this.store.remove(id));
  }

  /** The spelling in a glossary, for the CLI's `glossary remove <term>`. */
  removeTerm(glossaryId: number, term: string): Promise<GlossaryEntry> {
    return this.changing(() => {
      const entry = this.store.entryNamed(glossaryId, term);
      const glossary = this.store.require(glossaryId);
      if (!entry)
        throw new VerbatimError(
          'not_found',
          `The glossary “${glossary.name}” has no entry “${term.trim()}”.`,
        );
      return this.store.remove(entry.id);
    });
  }

  /**
   * "Add to the newsroom glossary…" (issue #36): added when this user may change the glossary
   * (merged into the entry of that spelling, as the reader's offer does), otherwise stored as a
   * proposal to its owner and editors, sent by the next sync.
   */
  propose(
    glossaryId: number,
    input: NewGlossaryEntry,
  ): Promise<{ proposed: true } | { proposed: false; entry: GlossaryEntry; created: boolean }> {
    return this.changing(() => {
      const glossary = this.store.require(glossaryId);
      const copy = this.store.newsroom.copy(glossaryId);
      if (!copy || copy.mayChange) return { proposed: false, ...this.store.add(glossary.id, input) };
      const parsed = newGlossaryEntrySchema.safeParse(input);
      if (!parsed.success)
        throw new VerbatimError(
          'invalid_input',
          parsed.error.issues[0]?.message ?? 'This glossary entry is not valid.',
        );
      this.store.newsroom.queueProposal(copy, sharedEntryOf(parsed.data));
      return { proposed: true };
    });
  }

  /**
   * Work on the newsroom side of the glossaries (a sync's sending and pulling), announced as a
   * change like any other so every window shows what arrived.
   */
  inNewsroom<T>(work: (store: NewsroomGlossaryStore) => T): Promise<T> {
    return this.changing(() => work(this.store.newsroom));
  }

  /** Reads the newsroom side without announcing a change. */
  readNewsroom<T>(read: (store: NewsroomGlossaryStore) => T): Promise<T> {
    return settle(() => read(this.store.newsroom));
  }

  /** Marks entries as used now: kept first when a key-term limit bites. */
  touch(ids: readonly number[]): Promise<void> {
    return this.changing(() => this.store.touch(ids));
  }

  /**
   * Adds a CSV file's entries to a glossary, all or none: a file with a bad row changes nothing
   * and its every problem is named with its line.
   */
  importCsv(glossaryId: number, text: string): Promise<GlossaryImport> {
    return this.changing(() => this.store.addMany(glossaryId, entriesOrRefusal(text)));
  }

  /**
   * As importCsv, into the glossary of that name, made for it only when the file is imported:
   * a file that imports nothing leaves no trace, not even an empty glossary (issue #31).
   */
  importCsvNamed(name: string, text: string): Promise<GlossaryImport & { glossary: Glossary }> {
    return this.changing(() => this.store.addManyNamed(name, entriesOrRefusal(text)));
  }

  exportCsv(glossaryId: number): Promise<string> {
    return settle(() => glossaryToCsv(this.store.entries({ glossaryId })));
  }

  /** What these glossaries add to a transcription with these options (see glossary-request.ts). */
  contribution(
    glossaryIds: readonly number[],
    options: TranscriptionOptions = {},
  ): Promise<GlossaryContribution> {
    return settle(() => glossaryContribution(this.store.entriesOf(glossaryIds), options));
  }

  /**
   * A new transcription's options with its glossaries' key terms and spellings added: the
   * glossaries named, or without `glossaryIds` those used by default (and the preset's). Options
   * the validator refuses are returned as they are, for the scheduler to name what is wrong.
   */
  async optionsFor(
    options: Record<string, unknown>,
    choice: { glossaryIds?: readonly number[] | undefined; preset?: string | undefined } = {},
  ): Promise<Record<string, unknown>> {
    return (await this.requestFor(options, choice)).options;
  }

  /** As optionsFor, with what the glossaries contributed (none when no glossary applies). */
  async requestFor(
    options: Record<string, unknown>,
    choice: { glossaryIds?: readonly number[] | undefined; preset?: string | undefined } = {},
  ): Promise<{ options: Record<string, unknown>; contribution: GlossaryContribution | undefined }> {
    const checked = checkTranscriptionOptions(options);
    if (!checked.ok) return { options, contribution: undefined };
    const ids = choice.glossaryIds ?? defaultGlossaryIds(await this.list(), choice.preset);
    if (ids.length === 0) return { options, contribution: undefined };
    const contribution = await this.contribution(ids, checked.options);
    return { options: withGlossaries({ ...options }, contribution), contribution };
  }

  private changing<T>(work: () => T): Promise<T> {
    return settle(() => {
      const result = work();
      // After the caller has its answer, as the Library announces its changes.
      setImmediate(() => {
        try {
          this.changed.emit();
        } catch {
          // Stored already; a window that went away only misses an update.
        }
      });
      return result;
    });
  }
}

/** A CSV file's entries, or the refusal naming each row that could not be read (nothing is stored). */
function entriesOrRefusal(text: string): NewGlossaryEntry[] {
  const read = glossaryFromCsv(text);
  if (read.ok && read.entries.length === 0)
    throw new VerbatimError(
      'invalid_input',
      'Nothing was imported: the file has no entries. A glossary file has the columns term, kind, misheard and note.',
    );
  if (read.ok) return read.entries;
  // Each problem is a sentence of its own; joined, they end with one full stop.
  const shown = read.problems
    .slice(0, 5)
    .map((problem) => `line ${problem.line}: ${problem.message.replace(/\.+$/, '')}`);
  const more =
    read.problems.length > shown.length ? ` (and ${read.problems.length - shown.length} more)` : '';
  throw new VerbatimError(
    'invalid_input',
    `Nothing was imported: ${read.problems.length === 1 ? 'a row' : `${read.problems.length} rows`} could not be read. ${shown.join('; ')}${more}.`,
    { problems: read.problems },
  );
}
