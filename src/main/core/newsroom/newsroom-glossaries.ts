import type pg from 'pg';
import { VerbatimError } from '../../../shared/errors';
import type { GlossaryEntryKind } from '../../../shared/glossary/glossary';
import { glossaryTermKey, type SharedEntry } from '../../../shared/glossary/newsroom-glossary';
import type { NewsroomConnection } from './newsroom-connection';
import { newsroomIdentity, type NewsroomIdentity } from './newsroom-desks';

/**
 * The newsroom's glossaries in SQL (issue #36, point 1; server migration 007). Everything runs as
 * the reporter's own login: row-level security decides what they see and may change, and who did
 * what is the login, never a value sent.
 *
 * A change carries the entry's revision it was made on (its base, 0 for no entry) and its own
 * uuid. It is applied only while the entry is still at its base, so **the change that reaches the
 * newsroom first wins**; one whose uuid is already the entry's last change was sent twice and is
 * not applied again. A pull reads what changed since a cursor (`change_xid >= cursor`) and takes
 * as the next cursor the oldest transaction still running when it read
 * (`pg_snapshot_xmin(pg_current_snapshot())`): a transaction that started earlier and commits
 * later is read next time, never skipped; a row read twice is applied twice, to the same effect.
 */

export interface SharedGlossaryRow {
  id: string;
  name: string;
  owner: string;
  /** null: the whole newsroom. */
  desk: string | null;
}

export interface SharedEntryRow extends SharedEntry {
  glossaryId: string;
  termKey: string;
  revision: number;
  lastChange: string;
  changedBy: string;
  changedAt: number;
  deleted: boolean;
}

export interface SharedProposalRow {
  id: string;
  glossaryId: string;
  entry: SharedEntry;
  proposedBy: string;
  proposedAt: number;
  state: 'open' | 'accepted' | 'declined';
  decidedBy: string | null;
}

/** A change made in a library, as it is sent: the whole entry after it, or null for a removal. */
export interface SharedEntryChange {
  id: string;
  glossaryId: string;
  termKey: string;
  /** The entry's revision the change was made on; 0 when there was no entry. */
  baseRevision: number;
  entry: SharedEntry | null;
}

export type ChangeOutcome =
  /** Applied now, or already (sent twice), or a removal of what was removed already. */
  | { applied: true; revision: number }
  /** Not applied: another change reached the newsroom first; this is the newsroom's entry. */
  | { applied: false; current: SharedEntryRow };

interface EntryRecord {
  glossary_id: string;
  term_key: string;
  term: string;
  kind: GlossaryEntryKind;
  misheard: string[];
  note: string;
  revision: number;
  last_change: string;
  changed_by: string;
  changed_at: Date;
  deleted: boolean;
}

const entryColumns =
  'glossary_id, term_key, term, kind, misheard, note, revision, last_change, changed_by, changed_at, deleted';

function entryOf(row: EntryRecord): SharedEntryRow {
  return {
    glossaryId: row.glossary_id,
    termKey: row.term_key,
    term: row.term,
    kind: row.kind,
    misheard: row.misheard,
    note: row.note,
    revision: row.revision,
    lastChange: row.last_change,
    changedBy: row.changed_by,
    changedAt: row.changed_at.getTime(),
    deleted: row.deleted,
  };
}

interface ProposalRecord {
  id: string;
  glossary_id: string;
  term: string;
  kind: GlossaryEntryKind;
  misheard: string[];
  note: string;
  proposed_by: string;
  proposed_at: Date;
  state: 'open' | 'accepted' | 'declined';
  decided_by: string | null;
}

const proposalColumns =
  'id, glossary_id, term, kind, misheard, note, proposed_by, proposed_at, state, decided_by';

function proposalOf(row: ProposalRecord): SharedProposalRow {
  return {
    id: row.id,
    glossaryId: row.glossary_id,
    entry: { term: row.term, kind: row.kind, misheard: row.misheard, note: row.note },
    proposedBy: row.proposed_by,
    proposedAt: row.proposed_at.getTime(),
    state: row.state,
    decidedBy: row.decided_by,
  };
}

async function inTransaction<T>(client: pg.ClientBase, work: () => Promise<T>, begin = 'BEGIN'): Promise<T> {
  await client.query(begin);
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** PostgreSQL refused by row-level security or a missing desk: said in the journalist's words. */
function refusalOf(error: unknown, what: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '42501') return new VerbatimError('forbidden', what);
  return error;
}

/**
 * Shares a glossary of the library: the glossary and its entries (each at revision 1) in one
 * transaction. Idempotent by the id the app made: sharing again after a crash adds nothing twice.
 */
export async function shareGlossary(
  newsroom: NewsroomConnection,
  glossary: { id: string; name: string; desk: string | null; entries: readonly SharedEntry[] },
  changeId: () => string,
): Promise<SharedGlossaryRow> {
  return newsroom.withClient((client) =>
    inTransaction(client, async () => {
      if (glossary.desk !== null) {
        const desk = await client.query('SELECT 1 FROM verbatim.desks WHERE name = $1', [glossary.desk]);
        if (desk.rowCount === 0)
          throw new VerbatimError('not_found', `There is no desk called ${glossary.desk} in this newsroom.`);
      }
      try {
        await client.query(
          `INSERT INTO verbatim.shared_glossaries (id, name, desk) VALUES ($1, $2, $3)
           ON CONFLICT (id) DO NOTHING`,
          [glossary.id, glossary.name, glossary.desk],
        );
      } catch (error) {
        throw refusalOf(
          error,
          `You can share a glossary only with a desk you are on, and you are not on ${glossary.desk ?? 'a desk'}.`,
        );
      }
      for (const entry of glossary.entries)
        await client.query(
          `INSERT INTO verbatim.shared_glossary_entries (glossary_id, term_key, term, kind, misheard, note, revision, last_change)
           VALUES ($1, $2, $3, $4, $5, $6, 1, $7) ON CONFLICT (glossary_id, term_key) DO NOTHING`,
          [
            glossary.id,
            glossaryTermKey(entry.term),
            entry.term,
            entry.kind,
            JSON.stringify(entry.misheard),
            entry.note,
            changeId(),
          ],
        );
      const row = await client.query<SharedGlossaryRow>(
        'SELECT id, name, owner, desk FROM verbatim.shared_glossaries WHERE id = $1',
        [glossary.id],
      );
      return row.rows[0]!;
    }),
  );
}

/**
 * Applies one change by compare-and-set on the entry's revision (see the top of this file). A
 * tombstone counts as "no entry" for an addition (base 0), so an entry removed and added again
 * is no conflict; a removal of a removed entry is applied already.
 */
export async function applyGlossaryChange(
  newsroom: NewsroomConnection,
  change: SharedEntryChange,
): Promise<ChangeOutcome> {
  const values = change.entry
    ? [change.entry.term, change.entry.kind, JSON.stringify(change.entry.misheard), change.entry.note]
    : null;
  return newsroom.withClient(async (client) => {
    const read = async (): Promise<EntryRecord | undefined> =>
      (
        await client.query<EntryRecord>(
          `SELECT ${entryColumns} FROM verbatim.shared_glossary_entries WHERE glossary_id = $1 AND term_key = $2`,
          [change.glossaryId, change.termKey],
        )
      ).rows[0];
    // What stops the change, if anything, given the entry as it is now.
    const settled = (current: EntryRecord | undefined): ChangeOutcome | undefined => {
      if (current?.last_change === change.id) return { applied: true, revision: current.revision };
      if (!values && (!current || current.deleted))
        return { applied: true, revision: current?.revision ?? 0 };
      if (!current) return undefined;
      const onBase =
        current.revision === change.baseRevision || (change.baseRevision === 0 && current.deleted);
      return onBase ? undefined : { applied: false, current: entryOf(current) };
    };
    try {
      const before = settled(await read());
      if (before) return before;
      // One statement each, compare-and-set in its WHERE: of two changes on one base, the second
      // waits for the first's row lock, then finds the revision moved and changes nothing.
      const written = await client.query<{ revision: number }>(
        values
          ? `INSERT INTO verbatim.shared_glossary_entries AS e
               (glossary_id, term_key, term, kind, misheard, note, revision, last_change)
             VALUES ($1, $2, $3, $4, $5, $6, 1, $7)
             ON CONFLICT (glossary_id, term_key) DO UPDATE
               SET term = excluded.term, kind = excluded.kind, misheard = excluded.misheard, note = excluded.note,
                   deleted = false, revision = e.revision + 1, last_change = excluded.last_change
               WHERE e.revision = $8 OR ($8 = 0 AND e.deleted)
             RETURNING revision`
          : `UPDATE verbatim.shared_glossary_entries SET deleted = true, revision = revision + 1, last_change = $3
             WHERE glossary_id = $1 AND term_key = $2 AND revision = $4 AND NOT deleted RETURNING revision`,
        values
          ? [change.glossaryId, change.termKey, ...values, change.id, change.baseRevision]
          : [change.glossaryId, change.termKey, change.id, change.baseRevision],
      );
      const revision = written.rows[0]?.revision;
      if (revision !== undefined) return { applied: true, revision };
      const after = settled(await read());
      if (after) return after;
      // On its base and still not written: row-level security hid the row from the UPDATE.
      throw notAllowedToChange();
    } catch (error) {
      throw refusalOf(error, notAllowedToChange().message);
    }
  });
}

function notAllowedToChange(): VerbatimError {
  return new VerbatimError(
    'forbidden',
    "Only the glossary's owner and the editors of its desk change it: propose the entry instead.",
  );
}

/** Proposes an entry to a glossary one sees; idempotent by the proposal's id. */
export async function proposeGlossaryEntry(
  newsroom: NewsroomConnection,
  proposal: { id: string; glossaryId: string; entry: SharedEntry },
): Promise<void> {
  try {
    await newsroom.query(
      `INSERT INTO verbatim.shared_glossary_proposals (id, glossary_id, term, kind, misheard, note)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
      [
        proposal.id,
        proposal.glossaryId,
        proposal.entry.term,
        proposal.entry.kind,
        JSON.stringify(proposal.entry.misheard),
        proposal.entry.note,
      ],
    );
  } catch (error) {
    throw refusalOf(
      error,
      'This newsroom glossary is not shared with you any more, so nothing can be proposed to it.',
    );
  }
}

/** The proposals this login sees: its own, and those to the glossaries it may change. */
export async function glossaryProposals(
  newsroom: NewsroomConnection,
  filter: { state?: SharedProposalRow['state'] } = {},
): Promise<SharedProposalRow[]> {
  const rows = await newsroom.query<ProposalRecord>(
    `SELECT ${proposalColumns} FROM verbatim.shared_glossary_proposals
     WHERE $1::text IS NULL OR state = $1 ORDER BY proposed_at, id`,
    [filter.state ?? null],
  );
  return rows.map(proposalOf);
}

/**
 * Accepts or declines an open proposal, as one who may change its glossary. Accepting adds the
 * entry (or adds its misheard forms to the entry of that spelling) in the same transaction.
 */
export async function decideGlossaryProposal(
  newsroom: NewsroomConnection,
  proposalId: string,
  decision: 'accepted' | 'declined',
): Promise<SharedProposalRow> {
  return newsroom.withClient((client) =>
    inTransaction(client, async () => {
      const read = async (): Promise<SharedProposalRow> => {
        const found = await client.query<ProposalRecord>(
          `SELECT ${proposalColumns} FROM verbatim.shared_glossary_proposals WHERE id = $1`,
          [proposalId],
        );
        const record = found.rows[0];
        if (!record)
          throw new VerbatimError('not_found', 'There is no such proposal, or it is not yours to see.');
        const proposal = proposalOf(record);
        if (proposal.state !== 'open')
          throw new VerbatimError(
            'conflict',
            `${proposal.decidedBy ?? 'Someone'} has ${proposal.state} this proposal already.`,
          );
        return proposal;
      };
      const proposal = await read();
      // Decided once: of two deciders at once, the second finds it decided.
      const decided = await client.query<ProposalRecord>(
        `UPDATE verbatim.shared_glossary_proposals SET state = $2 WHERE id = $1 AND state = 'open'
         RETURNING ${proposalColumns}`,
        [proposalId, decision],
      );
      if (decided.rowCount === 0) {
        await read();
        throw new VerbatimError(
          'forbidden',
          "Only the glossary's owner and the editors of its desk decide what is proposed to it.",
        );
      }
      if (decision === 'accepted') await acceptInto(client, proposal);
      return proposalOf(decided.rows[0]!);
    }),
  );
}

async function acceptInto(client: pg.ClientBase, proposal: SharedProposalRow): Promise<void> {
  const key = glossaryTermKey(proposal.entry.term);
  const found = await client.query<EntryRecord>(
    `SELECT ${entryColumns} FROM verbatim.shared_glossary_entries WHERE glossary_id = $1 AND term_key = $2 FOR UPDATE`,
    [proposal.glossaryId, key],
  );
  const current = found.rows[0];
  const entry =
    current && !current.deleted
      ? {
          term: current.term,
          kind: proposal.entry.kind,
          misheard: mergedForms(current.misheard, proposal.entry.misheard),
          note: proposal.entry.note || current.note,
        }
      : proposal.entry;
  const values = [entry.term, entry.kind, JSON.stringify(entry.misheard), entry.note];
  if (current)
    await client.query(
      `UPDATE verbatim.shared_glossary_entries
         SET term = $3, kind = $4, misheard = $5, note = $6, deleted = false, revision = revision + 1, last_change = $7
       WHERE glossary_id = $1 AND term_key = $2`,
      [proposal.glossaryId, key, ...values, proposal.id],
    );
  else
    await client.query(
      `INSERT INTO verbatim.shared_glossary_entries (glossary_id, term_key, term, kind, misheard, note, revision, last_change)
       VALUES ($1, $2, $3, $4, $5, $6, 1, $7)`,
      [proposal.glossaryId, key, ...values, proposal.id],
    );
}

function mergedForms(known: readonly string[], added: readonly string[]): string[] {
  const merged = [...known];
  for (const form of added)
    if (!merged.some((each) => each.toLowerCase() === form.toLowerCase())) merged.push(form);
  return merged;
}

export interface GlossaryPull {
  /** Where the next pull starts. */
  cursor: string;
  /** Every newsroom glossary this login sees now (a handful: read whole each time). */
  glossaries: SharedGlossaryRow[];
  /** Entries changed since the cursor, and every entry of a glossary not in `known`. */
  entries: SharedEntryRow[];
  /** Proposals this login sees that changed since the cursor. */
  proposals: SharedProposalRow[];
  identity: NewsroomIdentity;
}

/** The first cursor: everything. */
export const firstGlossaryCursor = '0';

/**
 * What changed since `cursor`, read in one snapshot (REPEATABLE READ) so the next cursor and the
 * rows agree. `known` are the glossaries the library has copies of: any other one visible now (just
 * shared, or the reporter just joined its desk) is read whole, whatever the cursor.
 */
export async function pullGlossaries(
  newsroom: NewsroomConnection,
  cursor: string,
  known: readonly string[],
): Promise<GlossaryPull> {
  if (!/^\d+$/.test(cursor)) throw new Error(`Not a glossary cursor: ${cursor}`);
  return newsroom.withClient((client) =>
    inTransaction(
      client,
      async () => {
        const next = await client.query<{ cursor: string }>(
          'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS cursor',
        );
        const glossaries = await client.query<SharedGlossaryRow>(
          'SELECT id, name, owner, desk FROM verbatim.shared_glossaries ORDER BY created_at, id',
        );
        const unknown = glossaries.rows.map((row) => row.id).filter((id) => !known.includes(id));
        const entries = await client.query<EntryRecord>(
          `SELECT ${entryColumns} FROM verbatim.shared_glossary_entries
           WHERE change_xid >= $1::xid8 OR glossary_id = ANY($2::uuid[])
           ORDER BY glossary_id, term_key`,
          [cursor, unknown],
        );
        const proposals = await client.query<ProposalRecord>(
          `SELECT ${proposalColumns} FROM verbatim.shared_glossary_proposals WHERE change_xid >= $1::xid8
           ORDER BY proposed_at, id`,
          [cursor],
        );
        return {
          cursor: next.rows[0]!.cursor,
          glossaries: glossaries.rows,
          entries: entries.rows.map(entryOf),
          proposals: proposals.rows.map(proposalOf),
          identity: await newsroomIdentity(client),
        };
      },
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
    ),
  );
}

/** Whether `user` (with these desks) may change a glossary of `owner` shared with `desk`. */
export function mayChangeGlossary(
  identity: NewsroomIdentity,
  glossary: { owner: string; desk: string | null },
): boolean {
  if (glossary.owner === identity.user) return true;
  return identity.desks.some(
    (membership) =>
      membership.role === 'editor' && (glossary.desk === null || membership.desk === glossary.desk),
  );
}
