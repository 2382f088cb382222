import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Glossaries } from '../glossary/glossaries';
import { openDatabase } from '../library/database';
import { GlossaryStore } from '../library/glossary-store';
import { connectionAs, passwordOf, setUpSampleNewsroom } from '../newsroom/newsroom-archive.test-kit';
import type { NewsroomConnection } from '../newsroom/newsroom-connection';
import { useNewsroomServer } from '../newsroom/newsroom-server.test-kit';
import { collaborationChannel, watchNewsroom } from '../newsroom/newsroom-watch';
import type { CollaborationNotice } from './collaboration-notice';
import { decideProposal, listGlossaryProposals, shareLibraryGlossary } from './glossary-sharing';
import { createGlossarySync } from './glossary-sync';
import { newsroomAddressText } from '../newsroom/newsroom-address';
import { firstGlossaryCursor } from '../newsroom/newsroom-glossaries';

/**
 * The newsroom glossary end to end in the core (issue #36, point 1): libraries of different
 * users (in memory), each with its own connection as its login, against a real PostgreSQL.
 */
const server = useNewsroomServer();
const connections: NewsroomConnection[] = [];

beforeAll(async () => {
  await setUpSampleNewsroom(server());
});
afterAll(async () => {
  for (const connection of connections) await connection.close();
});

/** A reporter's app: a library, its glossaries, a sync as `user`, and the notices it raised. */
function appOf(user: string) {
  const db = openDatabase(':memory:');
  const glossaries = new Glossaries(new GlossaryStore(db));
  const connection = connectionAs(server(), user);
  connections.push(connection);
  const notices: CollaborationNotice[] = [];
  const sync = createGlossarySync({
    glossaries,
    newsroom: (work) => work(connection),
    sink: (notice) => void notices.push(notice),
    timeZone: 'UTC',
  });
  const copyNamed = async (name: string) => {
    const glossary = (await glossaries.list()).find((each) => each.name === name);
    if (!glossary) throw new Error(`${user} has no glossary ${name}`);
    return glossary;
  };
  const entriesOf = async (name: string) =>
    (await glossaries.entries({ glossaryId: (await copyNamed(name)).id })).map(
      ({ term, kind, misheard, note }) => ({
        term,
        kind,
        misheard,
        note,
      }),
    );
  return { user, glossaries, connection, notices, sync: () => sync.sync(), copyNamed, entriesOf };
}
type App = ReturnType<typeof appOf>;

async function sharedByAna(name: string, desk: string | null = 'City'): Promise<App> {
  const ana = appOf('ana');
  const glossary = await ana.glossaries.create(name);
  await ana.glossaries.add(glossary.id, { term: 'Okonkwo', kind: 'person', misheard: ['Okon Quo'] });
  await shareLibraryGlossary(ana.glossaries, ana.connection, glossary.id, desk);
  return ana;
}

async function editNote(app: App, glossaryName: string, term: string, note: string): Promise<void> {
  const glossary = await app.copyNamed(glossaryName);
  const entry = (await app.glossaries.entries({ glossaryId: glossary.id })).find(
    (each) => each.term === term,
  )!;
  await app.glossaries.update(entry.id, { note });
}

describe('newsroom glossary sync', () => {
  it('a pull whose snapshot began before a share keeps the shared copy; one that knew the copy removes it', async () => {
    const ana = appOf('ana');
    const glossary = await ana.glossaries.create('Shared mid-pull');
    await shareLibraryGlossary(ana.glossaries, ana.connection, glossary.id, 'City');
    const key = newsroomAddressText(ana.connection.address);
    const [copy] = await ana.glossaries.readNewsroom((store) =>
      store.copies(key).filter((each) => each.name === 'Shared mid-pull'),
    );
    // What a pull read before the share committed: the newsroom showed no such glossary yet.
    const before = { cursor: firstGlossaryCursor, glossaries: [], entries: [], known: [] };
    await ana.glossaries.inNewsroom((store) => store.applyPull(key, before));
    expect((await ana.copyNamed('Shared mid-pull')).newsroom).toMatchObject({ desk: 'City' });
    // A pull that began knowing the copy and did not find it: no longer shared with this user.
    const gone = await ana.glossaries.inNewsroom((store) =>
      store.applyPull(key, { ...before, known: [copy!.id] }),
    );
    expect(gone.goneCopies).toEqual(['Shared mid-pull']);
  });

  it('a shared glossary reaches a colleague’s fresh library as a copy used by default; only who may change it does', async () => {
    const ana = await sharedByAna('City names');
    const ben = appOf('ben');
    const cleo = appOf('cleo');
    expect(await ben.sync()).toMatchObject({ newCopies: expect.arrayContaining(['City names']) as unknown });
    await cleo.sync();
    const copy = await ben.copyNamed('City names');
    expect(copy).toMatchObject({
      usedByDefault: true,
      newsroom: { desk: 'City', owner: 'ana', mayChange: false },
    });
    expect(await ben.entriesOf('City names')).toEqual([
      { term: 'Okonkwo', kind: 'person', misheard: ['Okon Quo'], note: '' },
    ]);
    expect((await cleo.copyNamed('City names')).newsroom?.mayChange).toBe(true);
    // What a new transcription in ben's library sends includes the newsroom's spellings.
    const options = await ben.glossaries.optionsFor({ speech_models: ['universal-3-5-pro'] });
    expect(options).toMatchObject({ keyterms_prompt: ['Okonkwo'] });
    await expect(ben.glossaries.add(copy.id, { term: 'Brennan' })).rejects.toThrow(
      'Only ana and the editors of City change “City names”; propose the entry instead, and they decide whether it goes in.',
    );
    await expect(ben.glossaries.delete(copy.id)).rejects.toThrow('untick “Use by default”');
    expect(ana.notices).toEqual([]);
  });

  it("the editor's change reaches the reporter once, with a notice of a new entry on their desk", async () => {
    await sharedByAna('Desk notices');
    const ben = appOf('ben');
    const cleo = appOf('cleo');
    await ben.sync();
    await cleo.sync();
    const glossary = await cleo.copyNamed('Desk notices');
    await cleo.glossaries.add(glossary.id, { term: 'Harbour Master Ruiz', kind: 'person' });
    expect((await cleo.copyNamed('Desk notices')).newsroom?.waiting).toBe(1);
    expect(await cleo.sync()).toMatchObject({ sent: 1, conflicts: [] });
    expect((await cleo.copyNamed('Desk notices')).newsroom?.waiting).toBe(0);
    const report = await ben.sync();
    expect(report.changes).toContain('cleo added “Harbour Master Ruiz” to “Desk notices”.');
    await ben.sync();
    const entryNotices = ben.notices.filter((notice) => notice.kind === 'glossary-entry');
    expect(entryNotices).toHaveLength(1);
    expect(entryNotices[0]).toMatchObject({
      by: 'cleo',
      text: 'cleo added “Harbour Master Ruiz” to “Desk notices”.',
    });
    expect(cleo.notices).toEqual([]);
  });

  it('a reporter’s proposal made offline is sent once, the editor is told, accepts it, and the entry arrives', async () => {
    await sharedByAna('Proposals');
    const ben = appOf('ben');
    const cleo = appOf('cleo');
    await ben.sync();
    await cleo.sync();
    const copy = await ben.copyNamed('Proposals');
    expect(
      await ben.glossaries.propose(copy.id, { term: 'Brennan', kind: 'person', misheard: ['Brenan'] }),
    ).toEqual({
      proposed: true,
    });
    expect(await ben.sync()).toMatchObject({ proposalsSent: 1 });
    expect(await ben.sync()).toMatchObject({ proposalsSent: 0 });
    await cleo.sync();
    expect(cleo.notices.filter((notice) => notice.kind === 'glossary-proposal')).toMatchObject([
      { by: 'ben', text: 'ben proposes “Brennan” for “Proposals”.' },
    ]);
    const open = (await listGlossaryProposals(cleo.glossaries, cleo.connection)).filter(
      (proposal) => proposal.glossaryName === 'Proposals' && proposal.state === 'open',
    );
    expect(open).toHaveLength(1);
    await decideProposal(cleo.glossaries, cleo.connection, open[0]!.id.slice(0, 8), 'accepted');
    await ben.sync();
    expect(await ben.entriesOf('Proposals')).toContainEqual({
      term: 'Brennan',
      kind: 'person',
      misheard: ['Brenan'],
      note: '',
    });
  });

  it('a removal reaches a copy that was offline when it was made', async () => {
    await sharedByAna('Removed offline');
    const ben = appOf('ben');
    const cleo = appOf('cleo');
    await ben.sync();
    await cleo.sync();
    await cleo.glossaries.removeTerm((await cleo.copyNamed('Removed offline')).id, 'Okonkwo');
    await cleo.sync();
    await ben.sync();
    expect(await ben.entriesOf('Removed offline')).toEqual([]);
  });

  it('of two offline changes to one entry, the one that reaches the newsroom first wins, in either order; the loser is told', async () => {
    for (const first of ['ana', 'cleo'] as const) {
      const name = `Conflict ${first} first`;
      const ana = await sharedByAna(name);
      const cleo = appOf('cleo');
      await cleo.sync();
      await editNote(ana, name, 'Okonkwo', 'mayor');
      await editNote(cleo, name, 'Okonkwo', 'councillor');
      const [winner, loser] = first === 'ana' ? [ana, cleo] : [cleo, ana];
      expect(await winner.sync()).toMatchObject({ sent: 1, conflicts: [] });
      const lost = await loser.sync();
      expect(lost.sent).toBe(0);
      const kept = winner === ana ? 'mayor' : 'councillor';
      const yours = winner === ana ? 'councillor' : 'mayor';
      expect(lost.conflicts).toHaveLength(1);
      expect(lost.conflicts[0]).toMatch(
        new RegExp(
          `^Your change to “Okonkwo” in “${name}” was not applied: ${winner.user} changed it on .+, before yours reached the newsroom \\(the change that reaches the newsroom first wins\\)\\. Kept: “Okonkwo” \\(person, misheard as Okon Quo; ${kept}\\); yours was: “Okonkwo” \\(person, misheard as Okon Quo; ${yours}\\)\\.$`,
        ),
      );
      expect(loser.notices.filter((notice) => notice.kind === 'glossary-conflict')).toHaveLength(1);
      expect(await loser.entriesOf(name)).toEqual(await winner.entriesOf(name));
      expect(winner.notices.filter((notice) => notice.kind === 'glossary-conflict')).toEqual([]);
    }
  });

  it('live: a watch on the collaboration channel brings a colleague’s change into another copy within a second', async () => {
    await sharedByAna('Live');
    const ben = appOf('ben');
    const cleo = appOf('cleo');
    await ben.sync();
    await cleo.sync();
    const watch = watchNewsroom(
      { address: { ...server().admin, user: 'ben' }, password: passwordOf('ben') },
      (payload) => {
        if (payload === 'glossary' || payload === undefined) void ben.sync();
      },
      { channel: collaborationChannel },
    );
    try {
      await watch.ready;
      await editNote(cleo, 'Live', 'Okonkwo', 'live');
      const started = Date.now();
      await cleo.sync();
      await expect
        .poll(async () => (await ben.entriesOf('Live'))[0]?.note, { timeout: 1_000, interval: 20 })
        .toBe('live');
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      await watch.dispose();
    }
  });

  it('property: offline sequences of add, edit and remove by three copies, synced in any order, end equal to the newsroom, each change applied or answered by one notice', async () => {
    const terms = ['Okonkwo', 'Brennan', 'Ruiz'];
    const step = fc.oneof(
      fc.record({
        who: fc.integer({ min: 0, max: 2 }),
        op: fc.constantFrom('add', 'edit', 'remove'),
        term: fc.constantFrom(...terms),
        note: fc.string({ maxLength: 5 }),
      }),
      fc.record({ who: fc.integer({ min: 0, max: 2 }), op: fc.constant('sync' as const) }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 14 }), async (steps) => {
        const name = `Property ${run++}`;
        const apps = [await sharedByAna(name), appOf('cleo'), appOf('ana')];
        for (const app of apps.slice(1)) await app.sync();
        const newsroomId = (await apps[0]!.copyNamed(name)).newsroom!.id;
        const syncChecked = async (app: App) => {
          const waiting = await app.glossaries.readNewsroom((store) =>
            store.waitingChanges(store.copies()[0]!.newsroom),
          );
          const before = app.notices.length;
          const report = await app.sync();
          const conflictKeys = app.notices
            .slice(before)
            .filter((n) => n.kind === 'glossary-conflict')
            .map((n) => n.key);
          expect(new Set(conflictKeys).size).toBe(conflictKeys.length);
          expect(report.sent + conflictKeys.length).toBe(waiting.length);
          for (const change of waiting) {
            if (conflictKeys.includes(`glossary-conflict:${change.id}`)) continue;
            const row = await server().pool.query<{ last_change: string; deleted: boolean }>(
              'SELECT last_change, deleted FROM verbatim.shared_glossary_entries WHERE glossary_id = $1 AND term_key = $2',
              [newsroomId, change.termKey],
            );
            const current = row.rows[0];
            // Applied: the newsroom's entry is this change; a removal may find it removed already.
            if (change.entry === null) expect(current === undefined || current.deleted).toBe(true);
            else expect(current?.last_change).toBe(change.id);
          }
        };
        for (const each of steps) {
          const app = apps[each.who]!;
          if (each.op === 'sync') {
            await syncChecked(app);
            continue;
          }
          const glossary = await app.copyNamed(name);
          const entry = (await app.glossaries.entries({ glossaryId: glossary.id })).find(
            (e) => e.term === each.term,
          );
          if (each.op === 'add') await app.glossaries.add(glossary.id, { term: each.term, note: each.note });
          else if (entry && each.op === 'edit') await app.glossaries.update(entry.id, { note: each.note });
          else if (entry && each.op === 'remove') await app.glossaries.remove(entry.id);
        }
        for (let round = 0; round < 2; round++) for (const app of apps) await syncChecked(app);
        const newsroom = await server().pool.query<{
          term: string;
          kind: string;
          misheard: string[];
          note: string;
        }>(
          `SELECT term, kind, misheard, note FROM verbatim.shared_glossary_entries
           WHERE glossary_id = $1 AND NOT deleted ORDER BY term`,
          [newsroomId],
        );
        for (const app of apps) {
          const entries = (await app.entriesOf(name)).sort((a, b) => a.term.localeCompare(b.term));
          expect(entries).toEqual(newsroom.rows);
        }
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
