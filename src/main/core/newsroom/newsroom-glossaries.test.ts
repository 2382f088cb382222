import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerbatimError } from '../../../shared/errors';
import type { SharedEntry } from '../../../shared/glossary/newsroom-glossary';
import { connectionAs, setUpSampleNewsroom, sqlAs } from './newsroom-archive.test-kit';
import type { NewsroomConnection } from './newsroom-connection';
import {
  applyGlossaryChange,
  decideGlossaryProposal,
  firstGlossaryCursor,
  glossaryProposals,
  mayChangeGlossary,
  proposeGlossaryEntry,
  pullGlossaries,
  shareGlossary,
} from './newsroom-glossaries';
import { useNewsroomServer } from './newsroom-server.test-kit';

/** The newsroom glossary's SQL against a real PostgreSQL, as each sample member (issue #36, point 1). */
const server = useNewsroomServer();
const connections = new Map<string, NewsroomConnection>();
const as = (user: string): NewsroomConnection => {
  let connection = connections.get(user);
  if (!connection) connections.set(user, (connection = connectionAs(server(), user)));
  return connection;
};

beforeAll(async () => {
  await setUpSampleNewsroom(server());
});
afterAll(async () => {
  for (const connection of connections.values()) await connection.close();
});

const okonkwo: SharedEntry = { term: 'Okonkwo', kind: 'person', misheard: ['Okon Quo'], note: '' };

async function sharedByAna(name: string, desk: string | null = 'City'): Promise<string> {
  const id = randomUUID();
  await shareGlossary(as('ana'), { id, name, desk, entries: [okonkwo] }, randomUUID);
  return id;
}

const change = (
  glossaryId: string,
  baseRevision: number,
  entry: SharedEntry | null,
  termKey = 'okonkwo',
) => ({
  id: randomUUID(),
  glossaryId,
  termKey,
  baseRevision,
  entry,
});

describe('newsroom glossaries', () => {
  it('a shared glossary is read whole by its desk, by nobody else, and sharing again adds nothing twice', async () => {
    const id = randomUUID();
    for (let times = 0; times < 2; times++)
      await shareGlossary(
        as('ana'),
        { id, name: 'City names', desk: 'City', entries: [okonkwo] },
        randomUUID,
      );
    const ben = await pullGlossaries(as('ben'), firstGlossaryCursor, []);
    expect(ben.glossaries.filter((g) => g.id === id)).toEqual([
      { id, name: 'City names', owner: 'ana', desk: 'City' },
    ]);
    expect(ben.entries.filter((e) => e.glossaryId === id)).toMatchObject([
      { term: 'Okonkwo', termKey: 'okonkwo', revision: 1, changedBy: 'ana', deleted: false },
    ]);
    const dev = await pullGlossaries(as('dev'), firstGlossaryCursor, []);
    expect(dev.glossaries.map((g) => g.id)).not.toContain(id);
    expect(dev.entries.map((e) => e.glossaryId)).not.toContain(id);
  });

  it('sharing with a desk one is not on, or one that does not exist, is refused in words', async () => {
    await expect(
      shareGlossary(as('ana'), { id: randomUUID(), name: 'x', desk: 'Politics', entries: [] }, randomUUID),
    ).rejects.toThrow('You can share a glossary only with a desk you are on, and you are not on Politics.');
    await expect(
      shareGlossary(as('ana'), { id: randomUUID(), name: 'x', desk: 'Sport', entries: [] }, randomUUID),
    ).rejects.toThrow('There is no desk called Sport in this newsroom.');
  });

  it('the owner and the desk editor change entries; a reporter of the desk is refused', async () => {
    const id = await sharedByAna('Changed by who may');
    expect(await applyGlossaryChange(as('cleo'), change(id, 1, { ...okonkwo, note: 'councillor' }))).toEqual({
      applied: true,
      revision: 2,
    });
    expect(await applyGlossaryChange(as('ana'), change(id, 2, { ...okonkwo, note: 'mayor' }))).toEqual({
      applied: true,
      revision: 3,
    });
    const refused = await applyGlossaryChange(as('ben'), change(id, 3, null)).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(VerbatimError);
    expect((refused as VerbatimError).code).toBe('forbidden');
    await expect(
      applyGlossaryChange(as('ben'), change(id, 0, { ...okonkwo, term: 'Brennan' }, 'brennan')),
    ).rejects.toThrow("Only the glossary's owner and the editors of its desk change it");
  });

  it('the change that reaches the newsroom first wins, whichever it is; the loser gets the newsroom’s entry', async () => {
    for (const first of ['ana', 'cleo'] as const) {
      const id = await sharedByAna(`First wins ${first}`);
      const second = first === 'ana' ? 'cleo' : 'ana';
      const firstChange = change(id, 1, { ...okonkwo, note: `by ${first}` });
      const secondChange = change(id, 1, { ...okonkwo, note: `by ${second}` });
      expect(await applyGlossaryChange(as(first), firstChange)).toEqual({ applied: true, revision: 2 });
      expect(await applyGlossaryChange(as(second), secondChange)).toEqual({
        applied: false,
        current: expect.objectContaining({ note: `by ${first}`, revision: 2, changedBy: first }) as unknown,
      });
    }
  });

  it('a change sent twice is applied once; two sent at once on one base: exactly one applies', async () => {
    const id = await sharedByAna('Sent twice');
    const once = change(id, 1, { ...okonkwo, note: 'once' });
    expect(await applyGlossaryChange(as('ana'), once)).toEqual({ applied: true, revision: 2 });
    expect(await applyGlossaryChange(as('ana'), once)).toEqual({ applied: true, revision: 2 });
    const outcomes = await Promise.all(
      ['ana', 'cleo'].map((user) => applyGlossaryChange(as(user), change(id, 2, { ...okonkwo, note: user }))),
    );
    expect(outcomes.filter((outcome) => outcome.applied)).toHaveLength(1);
  });

  it('a removal is a tombstone an offline copy reads; added again on "no entry", it is no conflict', async () => {
    const id = await sharedByAna('Tombstones');
    const before = await pullGlossaries(as('ben'), firstGlossaryCursor, []);
    expect(await applyGlossaryChange(as('cleo'), change(id, 1, null))).toEqual({
      applied: true,
      revision: 2,
    });
    // A removal of what is removed already is no conflict.
    expect(await applyGlossaryChange(as('ana'), change(id, 1, null))).toEqual({ applied: true, revision: 2 });
    const after = await pullGlossaries(as('ben'), before.cursor, [id]);
    expect(after.entries.filter((e) => e.glossaryId === id)).toMatchObject([
      { termKey: 'okonkwo', deleted: true, revision: 2, changedBy: 'cleo' },
    ]);
    expect(await applyGlossaryChange(as('ana'), change(id, 0, okonkwo))).toEqual({
      applied: true,
      revision: 3,
    });
  });

  it('a proposal is seen by its proposer and the deciders; accepted by the editor, its entry reaches the reporter', async () => {
    const id = await sharedByAna('Proposed');
    const proposalId = randomUUID();
    const brennan: SharedEntry = { term: 'Brennan', kind: 'person', misheard: ['Brenan'], note: '' };
    for (let times = 0; times < 2; times++)
      await proposeGlossaryEntry(as('ben'), { id: proposalId, glossaryId: id, entry: brennan });
    const mine = (rows: { id: string }[]) => rows.filter((row) => row.id === proposalId);
    expect(mine(await glossaryProposals(as('ben')))).toMatchObject([{ proposedBy: 'ben', state: 'open' }]);
    expect(mine(await glossaryProposals(as('cleo')))).toHaveLength(1);
    expect(mine(await glossaryProposals(as('dev')))).toHaveLength(0);
    await expect(decideGlossaryProposal(as('ben'), proposalId, 'accepted')).rejects.toThrow(
      "Only the glossary's owner and the editors of its desk decide",
    );
    const cursor = (await pullGlossaries(as('ben'), firstGlossaryCursor, [])).cursor;
    expect(await decideGlossaryProposal(as('cleo'), proposalId, 'accepted')).toMatchObject({
      state: 'accepted',
      decidedBy: 'cleo',
    });
    await expect(decideGlossaryProposal(as('ana'), proposalId, 'declined')).rejects.toThrow(
      'cleo has accepted this proposal already.',
    );
    const ben = await pullGlossaries(as('ben'), cursor, [id]);
    expect(ben.entries.filter((e) => e.glossaryId === id)).toMatchObject([
      { term: 'Brennan', misheard: ['Brenan'], revision: 1, changedBy: 'cleo' },
    ]);
    expect(mine(ben.proposals)).toMatchObject([{ state: 'accepted', decidedBy: 'cleo' }]);
  });

  it('the cursor never skips a row committed late: the transaction that started first and committed last is read next time', async () => {
    const id = await sharedByAna('Committed late');
    const early = await sqlAs(server(), 'ana');
    const late = await sqlAs(server(), 'cleo');
    try {
      await early.query('BEGIN');
      await early.query(
        `INSERT INTO verbatim.shared_glossary_entries (glossary_id, term_key, term, kind, revision, last_change)
         VALUES ($1, 'early', 'Early', 'term', 1, $2)`,
        [id, randomUUID()],
      );
      await late.query('BEGIN');
      await late.query(
        `INSERT INTO verbatim.shared_glossary_entries (glossary_id, term_key, term, kind, revision, last_change)
         VALUES ($1, 'late', 'Late', 'term', 1, $2)`,
        [id, randomUUID()],
      );
      await late.query('COMMIT');
      const first = await pullGlossaries(as('ben'), firstGlossaryCursor, []);
      expect(first.entries.filter((e) => e.glossaryId === id).map((e) => e.termKey)).toEqual([
        'late',
        'okonkwo',
      ]);
      await early.query('COMMIT');
      const second = await pullGlossaries(as('ben'), first.cursor, [id]);
      expect(second.entries.filter((e) => e.glossaryId === id).map((e) => e.termKey)).toContain('early');
    } finally {
      await early.end();
      await late.end();
    }
  });

  it('says who may change a glossary: its owner, the editors of its desk, any editor for the whole newsroom', () => {
    const cleo = { user: 'cleo', desks: [{ desk: 'City', role: 'editor' as const }] };
    const ben = { user: 'ben', desks: [{ desk: 'City', role: 'reporter' as const }] };
    expect(mayChangeGlossary(cleo, { owner: 'ana', desk: 'City' })).toBe(true);
    expect(mayChangeGlossary(cleo, { owner: 'ana', desk: null })).toBe(true);
    expect(mayChangeGlossary(cleo, { owner: 'dev', desk: 'Politics' })).toBe(false);
    expect(mayChangeGlossary(ben, { owner: 'ana', desk: 'City' })).toBe(false);
    expect(mayChangeGlossary(ben, { owner: 'ben', desk: 'City' })).toBe(true);
  });
});
