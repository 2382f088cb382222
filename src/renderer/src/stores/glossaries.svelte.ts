import { VerbatimError } from '../../../shared/errors';
import type { Glossary, GlossaryEntry, NewGlossaryEntry } from '../../../shared/glossary/glossary';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';

/** A glossary that has a spelling, with its entry. */
export interface SameSpelling {
  glossary: Glossary;
  entry: GlossaryEntry;
}

type EntryChange = Partial<Pick<GlossaryEntry, 'term' | 'kind' | 'misheard' | 'note'>>;

/**
 * The Glossary view's state (issue #21): the glossaries, the entries of the one open (searched
 * by main, ignoring case and accents), and each refused change kept beside the row it is about.
 * Every window follows `glossaries.changed`, so an entry added from the reader or the New
 * transcription form shows up here at once.
 */
class GlossariesStore {
  list = $state.raw<Glossary[]>([]);
  openId = $state<number | undefined>(undefined);
  entries = $state.raw<GlossaryEntry[]>([]);
  query = $state('');
  loaded = $state(false);
  error = $state<Problem | undefined>(undefined);
  /** A refused edit, by entry id. */
  problems = $state<Record<number, Problem | undefined>>({});
  addProblem = $state<Problem | undefined>(undefined);
  /** A spelling typed to add that a glossary has already, and where: the journalist decides. */
  sameSpelling = $state.raw<{ entry: NewGlossaryEntry; found: SameSpelling[] } | undefined>(undefined);
  /** The CSV import or export: its outcome, its problem, or a file already there to replace. */
  fileDone = $state<string | undefined>(undefined);
  fileProblem = $state<Problem | undefined>(undefined);
  replacing = $state<string | undefined>(undefined);
  nativeDialogs = $state(false);

  open = $derived(this.list.find((glossary) => glossary.id === this.openId));

  /** Loads and follows main's changes; the returned function stops following. */
  start(): () => void {
    const stop = api.on('glossaries.changed', () => void this.load());
    void this.load();
    void api.export.capabilities().then(
      (capabilities) => (this.nativeDialogs = capabilities.nativeDialogs),
      (error: unknown) => (this.error = caught(error, 'export.capabilities')),
    );
    return stop;
  }

  async load(): Promise<void> {
    try {
      this.list = await api.glossaries.list();
      if (!this.list.some((glossary) => glossary.id === this.openId)) this.openId = this.list[0]?.id;
      await this.loadEntries();
      this.error = undefined;
    } catch (error) {
      this.error = caught(error, 'glossaries.list');
    } finally {
      this.loaded = true;
    }
  }

  private async loadEntries(): Promise<void> {
    const glossaryId = this.openId;
    if (glossaryId === undefined) {
      this.entries = [];
      return;
    }
    const query = this.query.trim();
    const entries = await api.glossaries.entries({ glossaryId, ...(query ? { query } : {}) });
    // A later choice or keystroke has asked again: its answer is the one to show.
    if (glossaryId === this.openId && query === this.query.trim()) this.entries = entries;
  }

  async select(id: number): Promise<void> {
    this.openId = id;
    this.sameSpelling = undefined;
    this.problems = {};
    this.fileDone = undefined;
    this.fileProblem = undefined;
    await this.reloadEntries();
  }

  async search(query: string): Promise<void> {
    this.query = query;
    await this.reloadEntries();
  }

  private async reloadEntries(): Promise<void> {
    try {
      await this.loadEntries();
    } catch (error) {
      this.error = caught(error, 'glossaries.entries');
    }
  }

  async create(name: string): Promise<boolean> {
    return this.attempt('glossaries.create', async () => {
      const made = await api.glossaries.create({ name });
      this.list = [...this.list, made];
      await this.select(made.id);
    });
  }

  rename(id: number, name: string): Promise<boolean> {
    return this.attempt('glossaries.rename', async () => void (await api.glossaries.rename({ id, name })));
  }

  remove(id: number): Promise<boolean> {
    return this.attempt('glossaries.delete', async () => {
      await api.glossaries.delete({ id });
      if (this.openId === id) this.openId = undefined;
    });
  }

  setDefaults(id: number, defaults: { usedByDefault?: boolean; presets?: string[] }): Promise<boolean> {
    return this.attempt('glossaries.setDefaults', async () => {
      const updated = await api.glossaries.setDefaults({ id, ...defaults });
      this.list = this.list.map((glossary) => (glossary.id === id ? updated : glossary));
    });
  }

  /**
   * Adds to the open glossary; true once stored. A spelling a glossary has already (in any
   * capitals) is not added: `sameSpelling` says where it is, for the journalist to decide.
   */
  async addEntry(entry: NewGlossaryEntry): Promise<boolean> {
    if (this.openId === undefined) return false;
    try {
      const found = await api.glossaries.sameSpelling({ term: entry.term });
      if (found.length > 0) {
        this.sameSpelling = { entry, found };
        this.addProblem = undefined;
        return false;
      }
    } catch (error) {
      this.addProblem = caught(error, 'glossaries.sameSpelling');
      return false;
    }
    return this.store(entry, false);
  }

  /** Adds the entry the journalist was told of to the open glossary all the same (another glossary has it). */
  addAnyway(): Promise<boolean> {
    const asked = this.sameSpelling;
    return asked ? this.store(asked.entry, false) : Promise.resolve(false);
  }

  /** Adds the misheard forms and note typed to the open glossary's entry of that spelling. */
  mergeIntoExisting(): Promise<boolean> {
    const asked = this.sameSpelling;
    if (!asked) return Promise.resolve(false);
    // The kind stays the entry's: the form's kind is only its default, not a choice to change it.
    const here = asked.found.find((found) => found.glossary.id === this.openId);
    const { term, misheard, note } = asked.entry;
    return this.store(
      { term, misheard, ...(here ? { kind: here.entry.kind } : {}), ...(note?.trim() ? { note } : {}) },
      true,
    );
  }

  /** The journalist goes on editing what they typed: the notice goes. */
  keepEditing(): void {
    this.sameSpelling = undefined;
  }

  /** Opens the glossary that has the spelling, found by it. */
  async showExisting(found: SameSpelling): Promise<void> {
    this.sameSpelling = undefined;
    this.query = found.entry.term;
    await this.select(found.glossary.id);
  }

  private async store(entry: NewGlossaryEntry, merge: boolean): Promise<boolean> {
    const glossaryId = this.openId;
    if (glossaryId === undefined) return false;
    try {
      await api.glossaries.addEntry({ glossaryId, entry, merge });
      this.addProblem = undefined;
      this.sameSpelling = undefined;
      await this.reloadEntries();
      return true;
    } catch (error) {
      this.addProblem = caught(error, 'glossaries.addEntry');
      return false;
    }
  }

  async updateEntry(id: number, change: EntryChange): Promise<boolean> {
    try {
      const updated = await api.glossaries.updateEntry({ id, ...change });
      this.entries = this.entries.map((entry) => (entry.id === id ? updated : entry));
      this.problems = { ...this.problems, [id]: undefined };
      return true;
    } catch (error) {
      this.problems = { ...this.problems, [id]: caught(error, 'glossaries.updateEntry') };
      return false;
    }
  }

  async removeEntry(id: number): Promise<void> {
    try {
      await api.glossaries.removeEntry({ id });
      this.entries = this.entries.filter((entry) => entry.id !== id);
    } catch (error) {
      this.problems = { ...this.problems, [id]: caught(error, 'glossaries.removeEntry') };
    }
  }

  /** Imports a CSV: the OS dialog's file in the desktop app, else the path typed. */
  async importCsv(typedPath: string): Promise<void> {
    const glossaryId = this.openId;
    if (glossaryId === undefined) return;
    await this.withFile('glossaries.importCsv', async () => {
      const path = await this.chosenPath('import', glossaryId, typedPath);
      if (path === null) return;
      const { added, updated } = await api.glossaries.importCsv({ glossaryId, path });
      this.fileDone = `Imported ${added} new entr${added === 1 ? 'y' : 'ies'} and updated ${updated}.`;
      await this.reloadEntries();
    });
  }

  /** Exports the open glossary; a file already there is replaced only once the journalist says so. */
  async exportCsv(typedPath: string, replace = false): Promise<void> {
    const glossaryId = this.openId;
    if (glossaryId === undefined) return;
    await this.withFile('glossaries.exportCsv', async () => {
      const path = await this.chosenPath('export', glossaryId, typedPath);
      if (path === null) return;
      // The OS save dialog has already asked whether to replace a file there.
      const saved = await api.glossaries.exportCsv({
        glossaryId,
        path,
        replace: replace || this.nativeDialogs,
      });
      this.fileDone = `Saved ${saved.entries} entr${saved.entries === 1 ? 'y' : 'ies'} to ${saved.path}`;
    });
  }

  private async chosenPath(
    purpose: 'import' | 'export',
    glossaryId: number,
    typedPath: string,
  ): Promise<string | null> {
    if (this.nativeDialogs) return (await api.glossaries.chooseFile({ purpose, glossaryId })).path;
    const path = typedPath.trim();
    if (!path) throw new VerbatimError('invalid_input', 'Type the path of the CSV file first.');
    return path;
  }

  private async withFile(method: string, work: () => Promise<void>): Promise<void> {
    this.fileDone = undefined;
    this.fileProblem = undefined;
    this.replacing = undefined;
    try {
      await work();
    } catch (error) {
      if (error instanceof VerbatimError && error.code === 'conflict') this.replacing = error.message;
      else this.fileProblem = caught(error, method);
    }
  }

  private async attempt(method: string, work: () => Promise<void>): Promise<boolean> {
    try {
      await work();
      this.error = undefined;
      return true;
    } catch (error) {
      this.error = caught(error, method);
      return false;
    }
  }
}

export const glossaries = new GlossariesStore();
