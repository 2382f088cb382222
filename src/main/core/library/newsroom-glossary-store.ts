import { randomUUID } from 'node:crypto';
import { VerbatimError } from '../../../shared/errors';
import {
  glossaryNameMaxLength,
  type GlossaryEntry,
  type GlossaryEntryKind,
} from '../../../shared/glossary/glossary';
import {
  glossaryTermKey,
  sharedEntrySchema,
  mayNotChange,
  type NewsroomGlossaryStatus,
  type SharedEntry,
} from '../../../shared/glossary/newsroom-glossary';
import { inWriteTransaction, type Db } from './database';
import { statement } from './statement-cache';

/**
 * The library's side of newsroom glossaries (issue #36, point 1; library migration 020): which
 * glossaries are copies of a newsroom's, the changes and proposals made here that wait to be sent,
 * and what a sync brings back. Synchronous, as the glossary store is; `GlossaryStore` calls
 * `guard` and `queue` inside its own write transactions, so a change and its waiting item are
 * stored together or not at all (a crash after "saved" loses nothing).
 */

export interface NewsroomCopy extends NewsroomGlossaryStatus {
  /** The local glossary's id and name. */
  glossaryId: number;
  name: string;
  /** The newsroom (its address with the user) the copy belongs to. */
  newsroom: string;
}

export interface WaitingChange {
  id: string;
  glossaryId: number;
  newsroomGlossaryId: string;
  termKey: string;
  baseRevision: number;
  entry: SharedEntry | null;
}

export interface WaitingProposal {
  id: string;
  glossaryId: number;
  newsroomGlossaryId: string;
  entry: SharedEntry;
}

/** A newsroom glossary as a pull sees it, with whether this user may change it. */
export interface PulledGlossary {
  id: string;
  name: string;
  owner: string;
  desk: string | null;
  mayChange: boolean;
}

export interface PulledEntry extends SharedEntry {
  glossaryId: string;
  termKey: string;
  revision: number;
  changedBy: string;
  changedAt: number;
  deleted: boolean;
}

/** What a pull changed in a copy, for the notices and the command line's lines. */
export interface CopyChange {
  glossaryId: number;
  glossaryName: string;
  newsroomGlossaryId: string;
  desk: string | null;
  termKey: string;
  term: string;
  action: 'added' | 'changed' | 'removed';
  by: string;
  at: number;
  revision: number;
}

export interface PullApplied {
  /** Copies made now, by their names here. */
  newCopies: { glossaryId: number; name: string }[];
  /** Changes to entries of copies that existed before this pull. */
  changes: CopyChange[];
  /** Copies removed because the newsroom no longer shows them to this user. */
  goneCopies: string[];
}

const copyColumns = `g.id, g.name, g.newsroom, g.newsroom_id, g.newsroom_desk, g.newsroom_owner, g.newsroom_may_change,
  (SELECT count(*) FROM newsroom_glossary_changes c WHERE c.glossary_id = g.id)
  + (SELECT count(*) FROM newsroom_glossary_proposals p WHERE p.glossary_id = g.id) AS waiting`;

interface CopyRecord {
  id: number;
  name: string;
  newsroom: string;
  newsroom_id: string;
  newsroom_desk: string | null;
  newsroom_owner: string;
  newsroom_may_change: number;
  waiting: number;
}

function copyOf(row: CopyRecord): NewsroomCopy {
  return {
    glossaryId: row.id,
    name: row.name,
    newsroom: row.newsroom,
    id: row.newsroom_id,
    desk: row.newsroom_desk,
    owner: row.newsroom_owner,
    mayChange: row.newsroom_may_change === 1,
    waiting: row.waiting,
  };
}

function entryJson(entry: SharedEntry | null): string | null {
  return entry === null ? null : JSON.stringify(entry);
}

function parsedEntry(json: string): SharedEntry {
  return sharedEntrySchema.parse(JSON.parse(json));
}

export function sharedEntryOf(
  entry: Pick<GlossaryEntry, 'term' | 'kind' | 'misheard' | 'note'>,
): SharedEntry {
  return { term: entry.term, kind: entry.kind, misheard: [...entry.misheard], note: entry.note };
}

export class NewsroomGlossaryStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    private readonly newId: () => string = randomUUID,
  ) {}

  /** The copy a glossary is (shared and confirmed by a pull or a share), or undefined. */
  copy(glossaryId: number): NewsroomCopy | undefined {
    const row = statement(
      this.db,
      `SELECT ${copyColumns} FROM glossaries g WHERE g.id = ? AND g.newsroom_owner IS NOT NULL`,
    ).get(glossaryId) as CopyRecord | undefined;
    return row ? copyOf(row) : undefined;
  }

  /** Every copy, of every newsroom this library has known, or of one. */
  copies(newsroom?: string): NewsroomCopy[] {
    const rows = statement(
      this.db,
      `SELECT ${copyColumns} FROM glossaries g WHERE g.newsroom_owner IS NOT NULL AND (? IS NULL OR g.newsroom = ?)
       ORDER BY g.name COLLATE NOCASE`,
    ).all(newsroom ?? null, newsroom ?? null) as CopyRecord[];
    return rows.map(copyOf);
  }

  /**
   * Refuses a change to a copy this user may not change, in one sentence that says who may and
   * what to do instead. Anything else passes.
   */
  guard(glossaryId: number): NewsroomCopy | undefined {
    const copy = this.copy(glossaryId);
    if (copy && !copy.mayChange) throw new VerbatimError('forbidden', mayNotChange(copy), { glossaryId });
    return copy;
  }

  /**
   * Records a change made to a copy's entry, to be sent: its whole entry after the change, or null
   * when removed. A change waiting already for that spelling is replaced (its base kept, a new id:
   * what is sent is the entry as it is now), so one spelling has one waiting change.
   */
  queue(copy: NewsroomCopy, termKey: string, baseRevision: number, entry: SharedEntry | null): void {
    statement(
      this.db,
      `INSERT INTO newsroom_glossary_changes (id, glossary_id, term_key, base_revision, entry_json, created_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (glossary_id, term_key) DO UPDATE
         SET id = excluded.id, entry_json = excluded.entry_json, created_at = excluded.created_at`,
    ).run(this.newId(), copy.glossaryId, termKey, baseRevision, entryJson(entry), this.now());
  }

  /** A proposal made here, to be sent. */
  queueProposal(copy: NewsroomCopy, entry: SharedEntry): string {
    const id = this.newId();
    statement(
      this.db,
      'INSERT INTO newsroom_glossary_proposals (id, glossary_id, entry_json, created_at) VALUES (?, ?, ?, ?)',
    ).run(id, copy.glossaryId, JSON.stringify(entry), this.now());
    return id;
  }

  waitingChanges(newsroom: string): WaitingChange[] {
    const rows = statement(
      this.db,
      `SELECT c.id, c.glossary_id, g.newsroom_id, c.term_key, c.base_revision, c.entry_json
       FROM newsroom_glossary_changes c JOIN glossaries g ON g.id = c.glossary_id
       WHERE g.newsroom = ? AND g.newsroom_owner IS NOT NULL ORDER BY c.created_at, c.rowid`,
    ).all(newsroom) as {
      id: string;
      glossary_id: number;
      newsroom_id: string;
      term_key: string;
      base_revision: number;
      entry_json: string | null;
    }[];
    return rows.map((row) => ({
      id: row.id,
      glossaryId: row.glossary_id,
      newsroomGlossaryId: row.newsroom_id,
      termKey: row.term_key,
      baseRevision: row.base_revision,
      entry: row.entry_json === null ? null : parsedEntry(row.entry_json),
    }));
  }

  waitingProposals(newsroom: string): WaitingProposal[] {
    const rows = statement(
      this.db,
      `SELECT p.id, p.glossary_id, g.newsroom_id, p.entry_json
       FROM newsroom_glossary_proposals p JOIN glossaries g ON g.id = p.glossary_id
       WHERE g.newsroom = ? AND g.newsroom_owner IS NOT NULL ORDER BY p.created_at, p.rowid`,
    ).all(newsroom) as { id: string; glossary_id: number; newsroom_id: string; entry_json: string }[];
    return rows.map((row) => ({
      id: row.id,
      glossaryId: row.glossary_id,
      newsroomGlossaryId: row.newsroom_id,
      entry: parsedEntry(row.entry_json),
    }));
  }

  proposalSent(id: string): void {
    statement(this.db, 'DELETE FROM newsroom_glossary_proposals WHERE id = ?').run(id);
  }

  /**
   * The newsroom took change `change` at `revision`: the entry here holds that revision, and a
   * change made here meanwhile (it replaced this one while it was on its way) is now made on it.
   */
  changeApplied(change: WaitingChange, revision: number): void {
    inWriteTransaction(this.db, () => {
      statement(this.db, 'DELETE FROM newsroom_glossary_changes WHERE id = ?').run(change.id);
      statement(
        this.db,
        'UPDATE newsroom_glossary_changes SET base_revision = ? WHERE glossary_id = ? AND term_key = ? AND base_revision = ?',
      ).run(revision, change.glossaryId, change.termKey, change.baseRevision);
      const local = this.entryByKey(change.glossaryId, change.termKey);
      if (local)
        statement(this.db, 'UPDATE glossary_entries SET newsroom_revision = ? WHERE id = ?').run(
          revision,
          local.id,
        );
    });
  }

  /**
   * Another change reached the newsroom first: the copy takes the newsroom's entry, what waited
   * for that spelling is dropped, and what this user had is returned for the notice (null: they
   * had removed it).
   */
  changeLost(change: WaitingChange, current: PulledEntry): SharedEntry | null {
    return inWriteTransaction(this.db, () => {
      const local = this.entryByKey(change.glossaryId, change.termKey);
      statement(this.db, 'DELETE FROM newsroom_glossary_changes WHERE glossary_id = ? AND term_key = ?').run(
        change.glossaryId,
        change.termKey,
      );
      this.takeEntry(change.glossaryId, local, current);
      return local ? sharedEntryOf(local) : change.entry;
    });
  }

  /** A change the newsroom refuses outright (this user may no longer change the glossary): dropped. */
  changeRefused(change: WaitingChange): void {
    inWriteTransaction(this.db, () => {
      statement(this.db, 'DELETE FROM newsroom_glossary_changes WHERE id = ?').run(change.id);
      statement(this.db, 'UPDATE glossaries SET newsroom_may_change = 0 WHERE id = ?').run(change.glossaryId);
    });
  }

  /**
   * Before sharing: the id the glossary will have in `newsroom`, made once and kept, so sharing
   * again after a crash or a refusal shares the same glossary, never a second one.
   */
  shareId(glossaryId: number, newsroom: string): string {
    return inWriteTransaction(this.db, () => {
      const row = statement(
        this.db,
        'SELECT newsroom, newsroom_id, newsroom_owner FROM glossaries WHERE id = ?',
      ).get(glossaryId) as
        { newsroom: string | null; newsroom_id: string | null; newsroom_owner: string | null } | undefined;
      if (!row) throw new VerbatimError('not_found', 'This glossary no longer exists.', { glossaryId });
      if (row.newsroom_owner !== null)
        throw new VerbatimError('conflict', 'This glossary is shared in the newsroom already.', {
          glossaryId,
        });
      if (row.newsroom === newsroom && row.newsroom_id !== null) return row.newsroom_id;
      const id = this.newId();
      statement(this.db, 'UPDATE glossaries SET newsroom = ?, newsroom_id = ? WHERE id = ?').run(
        newsroom,
        id,
        glossaryId,
      );
      return id;
    });
  }

  /** The newsroom has the glossary: it is a copy now, each entry at the revision the newsroom gave it. */
  shared(glossaryId: number, shared: { owner: string; desk: string | null }): NewsroomCopy {
    return inWriteTransaction(this.db, () => {
      statement(
        this.db,
        'UPDATE glossaries SET newsroom_owner = ?, newsroom_desk = ?, newsroom_may_change = 1 WHERE id = ?',
      ).run(shared.owner, shared.desk, glossaryId);
      statement(
        this.db,
        'UPDATE glossary_entries SET newsroom_revision = 1 WHERE glossary_id = ? AND newsroom_revision = 0',
      ).run(glossaryId);
      return this.copy(glossaryId)!;
    });
  }

  cursor(newsroom: string): string | undefined {
    const row = statement(this.db, 'SELECT cursor FROM newsroom_glossary_cursors WHERE newsroom = ?').get(
      newsroom,
    ) as { cursor: string } | undefined;
    return row?.cursor;
  }

  /** The ids of the newsroom glossaries this library has copies of (shared or pulled). */
  knownIds(newsroom: string): string[] {
    return (
      statement(
        this.db,
        'SELECT newsroom_id FROM glossaries WHERE newsroom = ? AND newsroom_id IS NOT NULL',
      ).all(newsroom) as { newsroom_id: string }[]
    ).map((row) => row.newsroom_id);
  }

  /**
   * What a pull read, into the library in one transaction with the next cursor: new copies (used
   * by default for every new transcription), each copy's desk, owner and right to change it, the
   * entries changed (a spelling with a change waiting here is left for that change's answer),
   * and copies the newsroom no longer shows removed — only those known when the pull began
   * (`known`): a glossary shared here while the pull read the newsroom is not in its snapshot, and
   * is no less shared for it.
   */
  applyPull(
    newsroom: string,
    pull: {
      cursor: string;
      glossaries: readonly PulledGlossary[];
      entries: readonly PulledEntry[];
      known: readonly string[];
    },
  ): PullApplied {
    return inWriteTransaction(this.db, () => {
      const applied: PullApplied = { newCopies: [], changes: [], goneCopies: [] };
      const localOf = new Map<
        string,
        { glossaryId: number; isNew: boolean; name: string; desk: string | null }
      >();
      for (const glossary of pull.glossaries) {
        const known = statement(
          this.db,
          'SELECT id FROM glossaries WHERE newsroom = ? AND newsroom_id = ?',
        ).get(newsroom, glossary.id) as { id: number } | undefined;
        let glossaryId: number;
        let name: string;
        if (known) {
          glossaryId = known.id;
          statement(
            this.db,
            'UPDATE glossaries SET newsroom_owner = ?, newsroom_desk = ?, newsroom_may_change = ? WHERE id = ?',
          ).run(glossary.owner, glossary.desk, glossary.mayChange ? 1 : 0, glossaryId);
          name = (
            statement(this.db, 'SELECT name FROM glossaries WHERE id = ?').get(glossaryId) as { name: string }
          ).name;
        } else {
          name = this.freeName(glossary.name, glossary.owner);
          glossaryId = Number(
            statement(
              this.db,
              `INSERT INTO glossaries (name, used_by_default, created_at, newsroom, newsroom_id, newsroom_desk, newsroom_owner, newsroom_may_change)
               VALUES (?, 1, ?, ?, ?, ?, ?, ?)`,
            ).run(
              name,
              this.now(),
              newsroom,
              glossary.id,
              glossary.desk,
              glossary.owner,
              glossary.mayChange ? 1 : 0,
            ).lastInsertRowid,
          );
          applied.newCopies.push({ glossaryId, name });
        }
        localOf.set(glossary.id, { glossaryId, isNew: !known, name, desk: glossary.desk });
      }
      const visible = new Set(pull.glossaries.map((glossary) => glossary.id));
      for (const copy of this.copies(newsroom))
        if (!visible.has(copy.id) && pull.known.includes(copy.id)) {
          statement(this.db, 'DELETE FROM glossaries WHERE id = ?').run(copy.glossaryId);
          applied.goneCopies.push(copy.name);
        }
      const waiting = statement(
        this.db,
        'SELECT 1 FROM newsroom_glossary_changes WHERE glossary_id = ? AND term_key = ?',
      );
      for (const entry of pull.entries) {
        const copy = localOf.get(entry.glossaryId);
        if (!copy || waiting.get(copy.glossaryId, entry.termKey)) continue;
        const local = this.entryByKey(copy.glossaryId, entry.termKey);
        if (local && local.newsroomRevision >= entry.revision) continue;
        if (!local && entry.deleted) continue;
        this.takeEntry(copy.glossaryId, local, entry);
        if (!copy.isNew)
          applied.changes.push({
            glossaryId: copy.glossaryId,
            glossaryName: copy.name,
            newsroomGlossaryId: entry.glossaryId,
            desk: copy.desk,
            termKey: entry.termKey,
            term: entry.term,
            action: entry.deleted ? 'removed' : local ? 'changed' : 'added',
            by: entry.changedBy,
            at: entry.changedAt,
            revision: entry.revision,
          });
      }
      statement(
        this.db,
        `INSERT INTO newsroom_glossary_cursors (newsroom, cursor, pulled_at) VALUES (?, ?, ?)
         ON CONFLICT (newsroom) DO UPDATE SET cursor = excluded.cursor, pulled_at = excluded.pulled_at`,
      ).run(newsroom, pull.cursor, this.now());
      return applied;
    });
  }

  /** The newsroom glossary's name, or with its owner when this library has that name already. */
  private freeName(name: string, owner: string): string {
    const taken = (candidate: string) =>
      statement(this.db, 'SELECT 1 FROM glossaries WHERE name = ? COLLATE NOCASE').get(candidate) !==
      undefined;
    const fit = (text: string) => text.slice(0, glossaryNameMaxLength);
    if (!taken(name)) return fit(name);
    for (let n = 1; ; n++) {
      const candidate = fit(`${name} (${owner}${n === 1 ? '' : ` ${n}`})`);
      if (!taken(candidate)) return candidate;
    }
  }

  /** A copy's entry becomes the newsroom's: written, or deleted for a tombstone. */
  private takeEntry(
    glossaryId: number,
    local: (GlossaryEntry & { newsroomRevision: number }) | undefined,
    entry: PulledEntry,
  ): void {
    if (entry.deleted) {
      if (local) statement(this.db, 'DELETE FROM glossary_entries WHERE id = ?').run(local.id);
      return;
    }
    if (local)
      statement(
        this.db,
        'UPDATE glossary_entries SET term = ?, kind = ?, misheard_json = ?, note = ?, newsroom_revision = ? WHERE id = ?',
      ).run(entry.term, entry.kind, JSON.stringify(entry.misheard), entry.note, entry.revision, local.id);
    else
      statement(
        this.db,
        `INSERT INTO glossary_entries (glossary_id, term, kind, misheard_json, note, used_at, newsroom_revision)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        glossaryId,
        entry.term,
        entry.kind,
        JSON.stringify(entry.misheard),
        entry.note,
        entry.changedAt,
        entry.revision,
      );
  }

  /** The entry of a spelling's key in a glossary, with the newsroom revision it holds. */
  entryByKey(
    glossaryId: number,
    termKey: string,
  ): (GlossaryEntry & { newsroomRevision: number }) | undefined {
    const rows = statement(this.db, 'SELECT * FROM glossary_entries WHERE glossary_id = ?').all(
      glossaryId,
    ) as EntryRecord[];
    const row = rows.find((each) => glossaryTermKey(each.term) === termKey);
    if (!row) return undefined;
    return {
      id: row.id,
      glossaryId: row.glossary_id,
      term: row.term,
      kind: row.kind,
      misheard: JSON.parse(row.misheard_json) as string[],
      note: row.note,
      usedAt: row.used_at,
      newsroomRevision: row.newsroom_revision,
    };
  }

  /** The newsroom revision an entry of this library holds (0: not in the newsroom yet). */
  revisionOf(entryId: number): number {
    const row = statement(this.db, 'SELECT newsroom_revision FROM glossary_entries WHERE id = ?').get(
      entryId,
    ) as { newsroom_revision: number } | undefined;
    return row?.newsroom_revision ?? 0;
  }
}

interface EntryRecord {
  id: number;
  glossary_id: number;
  term: string;
  kind: GlossaryEntryKind;
  misheard_json: string;
  note: string;
  used_at: number;
  newsroom_revision: number;
}
