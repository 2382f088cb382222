import { beforeEach, describe, expect, it, vi } from 'vitest';
import { VerbatimError } from '../../../shared/errors';
import type { Glossary } from '../../../shared/glossary/glossary';
import type { GlossaryProposal, GlossarySyncReport } from '../../../shared/glossary/newsroom-glossary';
import type { NewsroomDesks } from '../../../shared/ipc/newsroom-contract';

const pull = vi.fn<() => Promise<GlossarySyncReport>>();
const proposals = vi.fn<() => Promise<GlossaryProposal[]>>();
const decideProposal = vi.fn<(input: { id: string; decision: string }) => Promise<GlossaryProposal>>();
const share = vi.fn<(input: { glossaryId: number; desk: string | null }) => Promise<Glossary>>();
const desks = vi.fn<() => Promise<NewsroomDesks>>();
const listeners = new Map<string, (payload: unknown) => void>();
const on = vi.fn((event: string, listener: (payload: unknown) => void) => {
  listeners.set(event, listener);
  return () => listeners.delete(event);
});
const write = vi.fn(() => Promise.resolve(undefined));
vi.mock('../lib/api', () => ({
  api: {
    glossaries: { pull, proposals, decideProposal, share },
    newsroom: { desks },
    on,
    log: { write },
  },
}));

const { newsroomGlossary, ShareDialogState, wholeNewsroom } = await import('./newsroom-glossary.svelte');

const nothing: GlossarySyncReport = { sent: 0, proposalsSent: 0, changes: [], conflicts: [], newCopies: [] };

function proposal(overrides: Partial<GlossaryProposal> = {}): GlossaryProposal {
  return {
    id: 'p1',
    glossaryId: 'city-names',
    glossaryName: 'City names',
    entry: { term: 'Brennan', kind: 'person', misheard: [], note: '' },
    proposedBy: 'ben',
    proposedAt: 2,
    state: 'open',
    decidedBy: null,
    ...overrides,
  };
}

function copy(mayChange: boolean): Glossary {
  return {
    id: 7,
    name: 'City names',
    usedByDefault: true,
    presets: [],
    entries: 1,
    newsroom: { id: 'city-names', desk: 'City', owner: 'ana', mayChange, waiting: 0 },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  vi.clearAllMocks();
  newsroomGlossary.follow([]);
  newsroomGlossary.forgetOutcomes();
});

describe('Pull now', () => {
  it('says what the pull did, and the changes that lost apart', async () => {
    pull.mockResolvedValue({
      ...nothing,
      changes: ['cleo added “Brennan” to “City names”.'],
      conflicts: ['Your change to “Okonkwo” in “City names” was not applied: …'],
    });
    await newsroomGlossary.pull();
    expect(newsroomGlossary.pulled).toEqual({
      sentences: ['cleo added “Brennan” to “City names”.'],
      conflicts: ['Your change to “Okonkwo” in “City names” was not applied: …'],
    });
    expect(newsroomGlossary.pulling).toBe(false);
  });

  it('says why it could not pull, in the newsroom’s sentence', async () => {
    pull.mockRejectedValue(new VerbatimError('network', 'The newsroom at db.example could not be reached.'));
    await newsroomGlossary.pull();
    expect(newsroomGlossary.pulled).toBeUndefined();
    expect(newsroomGlossary.pullProblem?.message).toBe('The newsroom at db.example could not be reached.');
  });
});

describe('proposals', () => {
  it('are asked of the newsroom only while the reporter decides a glossary, and only the open ones', async () => {
    proposals.mockResolvedValue([proposal(), proposal({ id: 'p2', state: 'declined' })]);
    newsroomGlossary.follow([copy(false)]);
    await settle();
    expect(proposals).not.toHaveBeenCalled();
    newsroomGlossary.follow([copy(true)]);
    await settle();
    expect(newsroomGlossary.proposalsFor('city-names').map((each) => each.id)).toEqual(['p1']);
    expect(newsroomGlossary.proposalsFor('elsewhere')).toEqual([]);
  });

  it('are read again when a colleague proposes (its notice), not for other notices', async () => {
    const stop = newsroomGlossary.start();
    proposals.mockResolvedValue([]);
    newsroomGlossary.follow([copy(true)]);
    await settle();
    proposals.mockClear();
    proposals.mockResolvedValue([proposal()]);
    listeners.get('notices.changed')?.({ unread: 1, added: { kind: 'story-comment' } });
    await settle();
    expect(proposals).not.toHaveBeenCalled();
    listeners.get('notices.changed')?.({ unread: 2, added: { kind: 'glossary-proposal' } });
    await settle();
    expect(newsroomGlossary.proposalsFor('city-names')).toHaveLength(1);
    stop();
    expect(listeners.size).toBe(0);
  });

  it('leave the list once decided; a refusal stays beside them', async () => {
    proposals.mockResolvedValue([proposal(), proposal({ id: 'p2', proposedAt: 1 })]);
    newsroomGlossary.follow([copy(true)]);
    await settle();
    expect(newsroomGlossary.proposalsFor('city-names').map((each) => each.id)).toEqual(['p2', 'p1']);
    decideProposal.mockResolvedValue(proposal({ state: 'accepted', decidedBy: 'ana' }));
    await newsroomGlossary.decide('p1', 'accepted');
    expect(decideProposal).toHaveBeenCalledWith({ id: 'p1', decision: 'accepted' });
    expect(newsroomGlossary.proposalsFor('city-names').map((each) => each.id)).toEqual(['p2']);
    decideProposal.mockRejectedValue(
      new VerbatimError('forbidden', 'Only ana and the editors of City decide.'),
    );
    await newsroomGlossary.decide('p2', 'declined');
    expect(newsroomGlossary.proposalsProblem?.message).toBe('Only ana and the editors of City decide.');
    expect(newsroomGlossary.deciding).toBeUndefined();
  });
});

describe('the Share dialog', () => {
  it('offers the reporter’s desks first, and shares with the whole newsroom as no desk', async () => {
    desks.mockResolvedValue({
      user: 'ana',
      desks: [{ desk: 'City', role: 'reporter' }],
      message: null,
      lastDesk: null,
    });
    share.mockResolvedValue(copy(true));
    const dialog = new ShareDialogState(7);
    await dialog.load();
    expect(dialog.choice).toBe('City');
    expect(await dialog.share()).toBe(true);
    expect(share).toHaveBeenLastCalledWith({ glossaryId: 7, desk: 'City' });
    dialog.choice = wholeNewsroom;
    await dialog.share();
    expect(share).toHaveBeenLastCalledWith({ glossaryId: 7, desk: null });
  });

  it('says why when the newsroom does not answer', async () => {
    desks.mockResolvedValue({
      user: null,
      desks: [],
      message: 'No newsroom is set: add its address in Settings.',
      lastDesk: null,
    });
    const dialog = new ShareDialogState(7);
    await dialog.load();
    expect(dialog.problem?.message).toBe('No newsroom is set: add its address in Settings.');
  });
});
