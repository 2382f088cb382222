import { inWriteTransaction, type Db } from './database';
import { foldForSearch } from './fold-for-search';
import { VerbatimError } from '../../../shared/errors';
import {
  glossaryEntriesMax,
  glossaryNameSchema,
  newGlossaryEntrySchema,
  type Glossary,
  type GlossaryEntry,
  type GlossaryEntryKind,
  entrySummary,
  type NewGlossaryEntry,
} from '../../../shared/glossary/glossary';
import { z } from 'zod';
import { flag, json, rowMapping, value } from './row-mapping';
import { statement } from './statement-cache';
import { NewsroomGlossaryStore, sharedEntryOf } from './newsroom-glossary-store';
import { copyIsNotDeleted, glossaryTermKey } from '../../../shared/glossary/newsroom-glossary';

const spellings = z.array(z.string());

const glossaryRow = rowMapping({
  id: value<number>('id'),
  name: value<string>('name'),
  usedByDefault: flag('used_by_default'),
  presets: json('presets_json', spellings),
  entries: value<number>('entries'),
});

/** An entry as stored: what the glossary's tests check maps to the row and back. */
export const glossaryEntryRow = rowMapping({
  id: value<number>('id'),
  glossaryId: value<number>('glossary_id'),
  term: value<string>('term'),
  kind: value<GlossaryEntryKind>('kind'),
  misheard: json('misheard_json', spellings),
  note: value<string>('note'),
  usedAt: value<number>('used_at'),
});

/** What changing an entry may change; absent fields stay as they are. */
export interface GlossaryEntryChange {
  term?: string | undefined;
  kind?: GlossaryEntryKind | undefined;
  misheard?: string[] | undefined;
  note?: string | undefined;
}

/** How an import went: what it added and merged, and the rows it could not read, by line. */
const spellingOrder = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

export interface GlossaryImport {
  added: number;
  updated: number;
}

function parseEntryInput(input: NewGlossaryEntry): {
  term: string;
  kind: GlossaryEntryKind;
  misheard: string[];
  note: string;
} {
  const parsed = newGlossaryEntrySchema.safeParse(input);
  if (!parsed.success)
    throw new VerbatimError(
      'invalid_input',
      parsed.error.issues[0]?.message ?? 'This glossary entry is not valid.',
    );
  return { ...parsed.data, misheard: uniqueForms(parsed.data.misheard, parsed.data.term) };
}

/** Misheard forms once each (ignoring case), without the spelling itself. */
function uniqueForms(forms: readonly string[], term: string): string[] {
  const seen = new Set([term.trim()]);
  const unique: string[] = [];
  for (const form of forms.map((f) => f.trim())) {
    if (
      form === '' ||
      seen.has(form) ||
      unique.some((known) => known.toLocaleLowerCase() === form.toLocaleLowerCase())
    )
      continue;
    seen.add(form);
    unique.push(form);
  }
  return unique;
}

/**
 * The glossaries and their entries in the library (issue #21). Synchronous; the Glossaries
 * service makes it async and announces changes.
 */
export class GlossaryStore {
  /** Which glossaries are a newsroom's copies, and what waits to be sent (issue #36). */
  readonly newsroom: NewsroomGlossaryStore;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.newsroom = new NewsroomGlossaryStore(db, now);
  }

  list(): Glossary[] {
    const copies = new Map(this.newsroom.copies().map((copy) => [copy.glossaryId, copy]));
    return statement(
      this.db,
      `SELECT g.id, g.name, g.used_by_default, g.presets_json,
             (SELECT count(*) FROM glossary_entries e WHERE e.glossary_id = g.id) AS entries
           FROM glossaries g ORDER BY g.name COLLATE NOCASE`,
    )
      .all()
      .map((row) => {
        const glossary = glossaryRow.fromRow(row);
        const copy = copies.get(glossary.id);
        if (!copy) return glossary;
        const { id, desk, owner, mayChange, waiting } = copy;
        return { ...glossary, newsroom: { id, desk, owner, mayChange, waiting } };
      });
  }

  require(id: number): Glossary {
    const glossary = this.list().find((known) => known.id === id);
    if (!glossary) throw new VerbatimError('not_found', 'This glossary no longer exists.', { id });
    return glossary;
  }

  /** A glossary by name, ignoring case; `create` makes it when there is none (the CLI's default "General"). */
  named(name: string, options: { create?: boolean } = {}): Glossary {
    const wanted = glossaryNameSchema.safeParse(name);
    if (!wanted.success)
      throw new VerbatimError(
        'invalid_input',
        wanted.error.issues[0]?.message ?? 'This is not a glossary name.',
      );
    const row = statement(this.db, 'SELECT id FROM glossaries WHERE name = ? COLLATE NOCASE').get(
      wanted.data,
    ) as { id: number } | undefined;
    if (row) return this.require(row.id);
    if (options.create) return this.create(wanted.data);
    const names = this.list().map((glossary) => glossary.name);
    throw new VerbatimError(
      'not_found',
      `There is no glossary called “${wanted.data}”.${names.length > 0 ? ` The glossaries are: ${names.join(', ')}.` : ''}`,
    );
  }

  create(name: string): Glossary {
    const parsed = glossaryNameSchema.safeParse(name);
    if (!parsed.success)
      throw new VerbatimError(
        'invalid_input',
        parsed.error.issues[0]?.message ?? 'This is not a glossary name.',
      );
    return inWriteTransaction(this.db, () => {
      this.refuseTakenName(parsed.data);
      const id = Number(
        statement(this.db, 'INSERT INTO glossaries (name, created_at) VALUES (?, ?)').run(
          parsed.data,
          this.now(),
        ).lastInsertRowid,
      );
      return this.require(id);
    });
  }

  rename(id: number, name: string): Glossary {
    const parsed = glossaryNameSchema.safeParse(name);
    if (!parsed.success)
      throw new VerbatimError(
        'invalid_input',
        parsed.error.issues[0]?.message ?? 'This is not a glossary name.',
      );
    return inWriteTransaction(this.db, () => {
      this.require(id);
      this.refuseTakenName(parsed.data, id);
      statement(this.db, 'UPDATE glossaries SET name = ? WHERE id = ?').run(parsed.data, id);
      return this.require(id);
    });
  }

  /** Whether it applies to every new transcription, and to which presets (by name) by default. */
  setDefaults(
    id: number,
    defaults: { usedByDefault?: boolean | undefined; presets?: string[] | undefined },
  ): Glossary {
    return inWriteTransaction(this.db, () => {
      const glossary = this.require(id);
      const presets = [
        ...new Set((defaults.presets ?? glossary.presets).map((preset) => preset.trim()).filter(Boolean)),
      ];
      statement(this.db, 'UPDATE glossaries SET used_by_default = ?, presets_json = ? WHERE id = ?').run(
        (defaults.usedByDefault ?? glossary.usedByDefault) ? 1 : 0,
        JSON.stringify(presets),
        id,
      );
      return this.require(id);
    });
  }

  delete(id: number): Glossary {
    return inWriteTransaction(this.db, () => {
      const glossary = this.require(id);
      // Deleted here, it would come back with the next pull: not using it is the way to leave it.
      if (glossary.newsroom)
        throw new VerbatimError(
          'forbidden',
          copyIsNotDeleted({ name: glossary.name, desk: glossary.newsroom.desk }),
          { id },
        );
      statement(this.db, 'DELETE FROM glossaries WHERE id = ?').run(id);
      return glossary;
    });
  }

  /**
   * Entries of one glossary (or all), in the order of their spellings; `query` keeps those whose
   * spelling, misheard forms or note contain it, ignoring case and accents.
   */
  entries(filter: { glossaryId?: number | undefined; query?: string | undefined } = {}): GlossaryEntry[] {
    if (filter.glossaryId !== undefined) this.require(filter.glossaryId);
    const rows =
      filter.glossaryId === undefined
        ? statement(this.db, 'SELECT * FROM glossary_entries ORDER BY id').all()
        : statement(this.db, 'SELECT * FROM glossary_entries WHERE glossary_id = ? ORDER BY id').all(
            filter.glossaryId,
          );
    // In the order of a dictionary, which SQLite's NOCASE is not: "Álvarez" among the A's.
    const entries = rows.map(glossaryEntryRow.fromRow).sort((a, b) => spellingOrder.compare(a.term, b.term));
    const query = foldForSearch(filter.query?.trim() ?? '');
    if (!query) return entries;
    return entries.filter((entry) =>
      [entry.term, ...entry.misheard, entry.note].some((text) => foldForSearch(text).includes(query)),
    );
  }

  /** The entries of these glossaries: what a new transcription sends. */
  entriesOf(glossaryIds: readonly number[]): GlossaryEntry[] {
    for (const id of glossaryIds) this.require(id);
    return this.entries().filter((entry) => glossaryIds.includes(entry.glossaryId));
  }

  entry(id: number): GlossaryEntry {
    const row = statement(this.db, 'SELECT * FROM glossary_entries WHERE id = ?').get(id);
    if (!row) throw new VerbatimError('not_found', 'This glossary entry no longer exists.', { id });
    return glossaryEntryRow.fromRow(row);
  }

  /** The entry of this spelling in a glossary, ignoring case. */
  entryNamed(glossaryId: number, term: string): GlossaryEntry | undefined {
    // SQLite's NOCASE folds only ASCII: "álvarez" must still find "Álvarez". A glossary is a few
    // thousand rows at most, so the spellings are compared here.
    const wanted = term.trim().toLocaleLowerCase();
    const rows = statement(this.db, 'SELECT id, term FROM glossary_entries WHERE glossary_id = ?').all(
      glossaryId,
    ) as { id: number; term: string }[];
    const found = rows.find((row) => row.term.toLocaleLowerCase() === wanted);
    if (!found) return undefined;
    return glossaryEntryRow.fromRow(
      statement(this.db, 'SELECT * FROM glossary_entries WHERE id = ?').get(found.id),
    );
  }

  /**
   * Adds an entry; a spelling the glossary has already (ignoring case) gains the new misheard
   * forms, and the kind and note given, rather than being refused: adding "Brennan" again from
   * the reader or a script means "and it is also misheard as …".
   */
  add(
    glossaryId: number,
    input: NewGlossaryEntry,
    options: { merge?: boolean | undefined } = {},
  ): { entry: GlossaryEntry; created: boolean } {
    return inWriteTransaction(this.db, () => {
      const glossary = this.require(glossaryId);
      const existing = this.entryNamed(glossaryId, input.term);
      // Asked not to merge (the Glossary view's form, `glossary add`): say what is there instead.
      if (existing && options.merge === false)
        throw new VerbatimError(
          'conflict',
          `${glossary.name} already has “${existing.term}” (${entrySummary(existing)}).`,
          { glossaryId, entryId: existing.id },
        );
      return this.addOne(glossaryId, input, this.now(), () => existing);
    });
  }

  /** The entries with this spelling (ignoring case) in every glossary, each with its glossary. */
  sameSpelling(term: string): { glossary: Glossary; entry: GlossaryEntry }[] {
    return this.list().flatMap((glossary) => {
      const entry = this.entryNamed(glossary.id, term);
      return entry ? [{ glossary, entry }] : [];
    });
  }

  private addOne(
    glossaryId: number,
    input: NewGlossaryEntry,
    at: number,
    existingNamed: (term: string) => GlossaryEntry | undefined,
  ): { entry: GlossaryEntry; created: boolean } {
    const parsed = parseEntryInput(input);
    const existing = existingNamed(parsed.term);
    if (existing) {
      const entry = this.write(
        existing.id,
        {
          misheard: [...existing.misheard, ...parsed.misheard],
          ...(input.kind !== undefined ? { kind: parsed.kind } : {}),
          ...(parsed.note ? { note: parsed.note } : {}),
        },
        at,
      );
      return { entry, created: false };
    }
    const copy = this.newsroom.guard(glossaryId);
    const count = (statement(this.db, 'SELECT count(*) AS n FROM glossary_entries').get() as { n: number }).n;
    if (count >= glossaryEntriesMax)
      throw new VerbatimError(
        'invalid_input',
        `The glossaries hold ${glossaryEntriesMax.toLocaleString('en-US')} entries at most. Remove some before adding more.`,
      );
    const id = Number(
      statement(
        this.db,
        'INSERT INTO glossary_entries (glossary_id, term, kind, misheard_json, note, used_at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(glossaryId, parsed.term, parsed.kind, JSON.stringify(parsed.misheard), parsed.note, at)
        .lastInsertRowid,
    );
    const entry = this.entry(id);
    if (copy) this.newsroom.queue(copy, glossaryTermKey(entry.term), 0, sharedEntryOf(entry));
    return { entry, created: true };
  }

  update(id: number, change: GlossaryEntryChange): GlossaryEntry {
    return inWriteTransaction(this.db, () => this.write(id, change));
  }

  remove(id: number): GlossaryEntry {
    return inWriteTransaction(this.db, () => {
      const entry = this.entry(id);
      const copy = this.newsroom.guard(entry.glossaryId);
      const revision = this.newsroom.revisionOf(id);
      statement(this.db, 'DELETE FROM glossary_entries WHERE id = ?').run(id);
      if (copy) this.newsroom.queue(copy, glossaryTermKey(entry.term), revision, null);
      return entry;
    });
  }

  /** Adds or merges many entries in one transaction: all of them, or none when one is refused. */
  addMany(glossaryId: number, inputs: readonly NewGlossaryEntry[]): GlossaryImport {
    return inWriteTransaction(this.db, () => {
      this.require(glossaryId);
      // One import is one moment: its rows are equally recent, ordered by spelling when a limit bites.
      const at = this.now();
      const fold = (term: string): string => term.trim().toLocaleLowerCase();
      const rows = statement(this.db, 'SELECT id, term FROM glossary_entries WHERE glossary_id = ?').all(
        glossaryId,
      ) as { id: number; term: string }[];
      const known = new Map(rows.map((row) => [fold(row.term), row.id]));
      let added = 0;
      let updated = 0;
      for (const input of inputs) {
        const result = this.addOne(glossaryId, input, at, (term) => {
          const id = known.get(fold(term));
          return id === undefined ? undefined : this.entry(id);
        });
        known.set(fold(result.entry.term), result.entry.id);
        if (result.created) added++;
        else updated++;
      }
      return { added, updated };
    });
  }

  /** As addMany, into the glossary of that name, made in the same transaction: none if nothing is added. */
  addManyNamed(name: string, inputs: readonly NewGlossaryEntry[]): GlossaryImport & { glossary: Glossary } {
    return inWriteTransaction(this.db, () => {
      const made = this.named(name, { create: true });
      const result = this.addMany(made.id, inputs);
      return { ...result, glossary: this.require(made.id) };
    });
  }

  /** Marks entries as used now (applied to a transcript, learned again): they are kept first when a limit bites. */
  touch(ids: readonly number[]): void {
    if (ids.length === 0) return;
    inWriteTransaction(this.db, () => {
      const touch = statement(this.db, 'UPDATE glossary_entries SET used_at = ? WHERE id = ?');
      const now = this.now();
      for (const id of ids) touch.run(now, id);
    });
  }

  private write(id: number, change: GlossaryEntryChange, at = this.now()): GlossaryEntry {
    const entry = this.entry(id);
    const copy = this.newsroom.guard(entry.glossaryId);
    const next = parseEntryInput({
      term: change.term ?? entry.term,
      kind: change.kind ?? entry.kind,
      misheard: change.misheard ?? entry.misheard,
      note: change.note ?? entry.note,
    });
    const clash = this.entryNamed(entry.glossaryId, next.term);
    if (clash && clash.id !== id)
      throw new VerbatimError('invalid_input', `This glossary already has “${clash.term}”.`);
    statement(
      this.db,
      'UPDATE glossary_entries SET term = ?, kind = ?, misheard_json = ?, note = ?, used_at = ? WHERE id = ?',
    ).run(next.term, next.kind, JSON.stringify(next.misheard), next.note, at, id);
    const written = this.entry(id);
    if (copy) {
      const revision = this.newsroom.revisionOf(id);
      const before = glossaryTermKey(entry.term);
      const after = glossaryTermKey(written.term);
      // The newsroom keys an entry by its spelling: respelt, it is the old one removed and a new one added.
      if (before !== after) {
        this.newsroom.queue(copy, before, revision, null);
        statement(this.db, 'UPDATE glossary_entries SET newsroom_revision = 0 WHERE id = ?').run(id);
      }
      this.newsroom.queue(copy, after, before === after ? revision : 0, sharedEntryOf(written));
    }
    return written;
  }

  private refuseTakenName(name: string, except?: number): void {
    const taken = statement(
      this.db,
      'SELECT id FROM glossaries WHERE name = ? COLLATE NOCASE AND id IS NOT ?',
    ).get(name, except ?? null);
    if (taken) throw new VerbatimError('invalid_input', `There is already a glossary called “${name}”.`);
  }
}
