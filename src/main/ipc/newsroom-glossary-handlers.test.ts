import { beforeAll, describe, expect, it } from 'vitest';
import type { Glossary } from '../../shared/glossary/glossary';
import type { GlossaryProposal, GlossarySyncReport } from '../../shared/glossary/newsroom-glossary';
import type { CollaborationNotice } from '../core/collaboration/collaboration-notice';
import { passwordOf, setUpSampleNewsroom } from '../core/newsroom/newsroom-archive.test-kit';
import { useNewsroomServer } from '../core/newsroom/newsroom-server.test-kit';
import { useAppTestbeds } from './ipc-testbed.test-kit';

/** Newsroom glossaries through the app's dispatcher (issue #36): three apps, as ana, ben and cleo. */
const server = useNewsroomServer();
beforeAll(() => setUpSampleNewsroom(server()));
const app = useAppTestbeds();

async function appAs(user: string) {
  const testbed = app();
  await testbed.call('newsroom.setSettings', { address: server().urlFor(user), password: passwordOf(user) });
  const notices: CollaborationNotice[] = [];
  testbed.services.core.notices.changed.subscribe(({ added }) => {
    if (added) notices.push(added);
  });
  const named = async (name: string) =>
    (await testbed.call<Glossary[]>('glossaries.list')).find((glossary) => glossary.name === name)!;
  return { ...testbed, notices, named };
}

describe('newsroom glossaries from a window', () => {
  it('shares, shows each copy’s desk, owner and right to change; a reporter is refused in a sentence and proposes; the editor decides', async () => {
    const ana = await appAs('ana');
    const made = await ana.call<Glossary>('glossaries.create', { name: 'City names' });
    await ana.call('glossaries.addEntry', {
      glossaryId: made.id,
      entry: { term: 'Okonkwo', kind: 'person' },
    });
    const shared = await ana.call<Glossary>('glossaries.share', { glossaryId: made.id, desk: 'City' });
    expect(shared.newsroom).toMatchObject({ desk: 'City', owner: 'ana', mayChange: true, waiting: 0 });

    const ben = await appAs('ben');
    const cleo = await appAs('cleo');
    // Ben's app reads the newsroom as soon as Settings name it: the copy arrives unasked.
    await expect
      .poll(async () => (await ben.named('City names'))?.newsroom?.owner, { timeout: 5_000 })
      .toBe('ana');
    expect(await ben.call<GlossarySyncReport>('glossaries.pull')).toMatchObject({ newCopies: [] });
    await cleo.call('glossaries.pull');
    const copy = await ben.named('City names');
    expect(copy.newsroom).toMatchObject({ desk: 'City', owner: 'ana', mayChange: false });
    expect(
      await ben.failure('glossaries.addEntry', { glossaryId: copy.id, entry: { term: 'Brennan' } }),
    ).toMatchObject({
      code: 'forbidden',
      message:
        'Only ana and the editors of City change “City names”; propose the entry instead, and they decide whether it goes in.',
    });
    expect(
      await ben.call('glossaries.propose', {
        glossaryId: copy.id,
        entry: { term: 'Brennan', misheard: ['Brenan'] },
      }),
    ).toEqual({ proposed: true });
    // Sent by the loop the proposal woke; a pull then finds nothing waiting.
    await expect
      .poll(async () => (await ben.named('City names')).newsroom?.waiting, { timeout: 5_000 })
      .toBe(0);

    await cleo.call('glossaries.pull');
    expect(cleo.notices.map((notice) => notice.text)).toContain('ben proposes “Brennan” for “City names”.');
    const [proposal] = (await cleo.call<GlossaryProposal[]>('glossaries.proposals')).filter(
      (each) => each.state === 'open',
    );
    expect(proposal).toMatchObject({
      proposedBy: 'ben',
      glossaryName: 'City names',
      entry: { term: 'Brennan' },
    });
    expect(
      await ben.failure('glossaries.decideProposal', { id: proposal!.id, decision: 'accepted' }),
    ).toMatchObject({ code: 'forbidden' });
    await cleo.call('glossaries.decideProposal', { id: proposal!.id, decision: 'accepted' });
    await ben.call('glossaries.pull');
    const entries = await ben.call<{ term: string }[]>('glossaries.entries', { glossaryId: copy.id });
    expect(entries.map((entry) => entry.term)).toEqual(['Brennan', 'Okonkwo']);
    expect(
      ben.notices.filter((notice) => notice.kind === 'glossary-entry').map((notice) => notice.text),
    ).toEqual(['cleo added “Brennan” to “City names”.']);
  });

  it('an editor’s change in a window is sent by the loop without being asked', async () => {
    const ana = await appAs('ana');
    const made = await ana.call<Glossary>('glossaries.create', { name: 'Loop names' });
    await ana.call('glossaries.share', { glossaryId: made.id, desk: 'City' });
    await ana.call('glossaries.addEntry', { glossaryId: made.id, entry: { term: 'Ruiz', kind: 'person' } });
    await expect
      .poll(
        async () =>
          (
            await server().pool.query(
              "SELECT 1 FROM verbatim.shared_glossary_entries e JOIN verbatim.shared_glossaries g ON g.id = e.glossary_id WHERE g.name = 'Loop names' AND e.term = 'Ruiz'",
            )
          ).rowCount,
        { timeout: 5_000 },
      )
      .toBe(1);
  });

  it("a colleague's entry reaches an open app within a second, unasked, with a notice pushed to its pages", async () => {
    const ana = await appAs('ana');
    const made = await ana.call<Glossary>('glossaries.create', { name: 'Live names' });
    await ana.call('glossaries.share', { glossaryId: made.id, desk: 'City' });
    // Ben's app found the newsroom when Settings named it: it has the copy and listens.
    const ben = await appAs('ben');
    await expect
      .poll(async () => (await ben.named('Live names'))?.newsroom?.desk, { timeout: 5_000 })
      .toBe('City');
    await expect.poll(() => ben.services.collaboration.listening, { timeout: 5_000 }).toBe(true);
    const pushed = ben.nextEvent('notices.changed');
    const sentAt = Date.now();
    await ana.call('glossaries.addEntry', { glossaryId: made.id, entry: { term: 'Haugen', kind: 'person' } });
    await pushed;
    expect(Date.now() - sentAt).toBeLessThan(1_000);
    const copy = await ben.named('Live names');
    const entries = await ben.call<{ term: string }[]>('glossaries.entries', { glossaryId: copy.id });
    expect(entries.map((entry) => entry.term)).toEqual(['Haugen']);
    expect(ben.notices.map((notice) => notice.text)).toEqual(['ana added “Haugen” to “Live names”.']);
  });
});
