import type { Glossary } from '../../../shared/glossary/glossary';
import { syncReportSentences, type GlossaryProposal } from '../../../shared/glossary/newsroom-glossary';
import type { NewsroomDesks } from '../../../shared/ipc/newsroom-contract';
import { api } from '../lib/api';
import { problem, type Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';

/** What "Pull now" did: a sentence each, and the changes of this reporter that lost, said apart. */
export interface PullOutcome {
  sentences: string[];
  conflicts: string[];
}

/**
 * The newsroom side of the Glossary view (issue #36, point 1): the open proposals for the
 * glossaries this reporter decides, a pull on demand and its report. Proposals are read from the
 * newsroom (they are not kept in the library), again when a colleague proposes (its notice) and
 * when the glossaries change (a decision's entry arriving).
 */
class NewsroomGlossaryStore {
  proposals = $state.raw<GlossaryProposal[]>([]);
  proposalsProblem = $state<Problem | undefined>(undefined);
  /** The proposal being decided, so its buttons wait. */
  deciding = $state<string | undefined>(undefined);
  pulling = $state(false);
  pulled = $state.raw<PullOutcome | undefined>(undefined);
  pullProblem = $state<Problem | undefined>(undefined);
  /** What "Propose an entry…" did, in a sentence ("Proposed “Brennan” to …"). */
  entryDone = $state<string | undefined>(undefined);
  private decides = false;

  /** Follows what may change the proposals while the view is shown; returns the stop. */
  start(): () => void {
    const stops = [
      api.on('glossaries.changed', () => void this.loadProposals()),
      api.on('notices.changed', ({ added }) => {
        if (added?.kind === 'glossary-proposal') void this.loadProposals();
      }),
    ];
    return () => stops.forEach((stop) => stop());
  }

  /**
   * Whether this reporter decides any of these glossaries: only then are proposals asked of the
   * newsroom (a reporter who only proposes has none to see, and is not told the newsroom is away).
   */
  follow(glossaries: readonly Glossary[]): void {
    const decides = glossaries.some((glossary) => glossary.newsroom?.mayChange);
    if (decides === this.decides) return;
    this.decides = decides;
    void this.loadProposals();
  }

  async loadProposals(): Promise<void> {
    if (!this.decides) {
      this.proposals = [];
      this.proposalsProblem = undefined;
      return;
    }
    try {
      const all = await api.glossaries.proposals();
      this.proposals = all.filter((proposal) => proposal.state === 'open');
      this.proposalsProblem = undefined;
    } catch (error) {
      this.proposalsProblem = caught(error, 'glossaries.proposals');
    }
  }

  /** The open proposals for one newsroom glossary (by its newsroom id), oldest first. */
  proposalsFor(newsroomId: string): GlossaryProposal[] {
    return this.proposals
      .filter((proposal) => proposal.glossaryId === newsroomId)
      .sort((a, b) => a.proposedAt - b.proposedAt);
  }

  async decide(id: string, decision: 'accepted' | 'declined'): Promise<void> {
    this.deciding = id;
    try {
      await api.glossaries.decideProposal({ id, decision });
      this.proposals = this.proposals.filter((proposal) => proposal.id !== id);
      this.proposalsProblem = undefined;
    } catch (error) {
      this.proposalsProblem = caught(error, 'glossaries.decideProposal');
    } finally {
      this.deciding = undefined;
    }
  }

  /** Sends what waits and reads what changed now; its sentences stay until the next pull. */
  async pull(): Promise<void> {
    this.pulling = true;
    this.pullProblem = undefined;
    try {
      const report = await api.glossaries.pull();
      this.pulled = { sentences: syncReportSentences(report), conflicts: report.conflicts };
    } catch (error) {
      this.pulled = undefined;
      this.pullProblem = caught(error, 'glossaries.pull');
    } finally {
      this.pulling = false;
    }
  }

  /** Another glossary opened: the last pull's report and proposal were about the one before. */
  forgetOutcomes(): void {
    this.pulled = undefined;
    this.pullProblem = undefined;
    this.entryDone = undefined;
  }
}

export const newsroomGlossary = new NewsroomGlossaryStore();

/** Where a glossary can be shared: one of the reporter's desks, or the whole newsroom (''). */
export const wholeNewsroom = '';

/**
 * The "Share with the newsroom…" dialog: the reporter's desks as the newsroom lists them, and
 * the whole newsroom. Sharing needs the newsroom to answer; when it cannot list the desks, the
 * dialog says why and shares nothing.
 */
export class ShareDialogState {
  desks = $state<NewsroomDesks | undefined>(undefined);
  /** A desk's name, or `wholeNewsroom`. */
  choice = $state(wholeNewsroom);
  loading = $state(true);
  busy = $state(false);
  problem = $state<Problem | undefined>(undefined);

  constructor(readonly glossaryId: number) {}

  async load(): Promise<void> {
    this.loading = true;
    try {
      const desks = await api.newsroom.desks();
      this.desks = desks;
      this.choice = desks.desks[0]?.desk ?? wholeNewsroom;
      if (desks.user === null) this.problem = problem(desks.message ?? 'The newsroom did not answer.');
    } catch (error) {
      this.problem = caught(error, 'newsroom.desks');
    } finally {
      this.loading = false;
    }
  }

  /** Shares; true once the newsroom has it (the dialog then closes). */
  async share(): Promise<boolean> {
    this.busy = true;
    try {
      await api.glossaries.share({
        glossaryId: this.glossaryId,
        desk: this.choice === wholeNewsroom ? null : this.choice,
      });
      this.problem = undefined;
      return true;
    } catch (error) {
      this.problem = caught(error, 'glossaries.share');
      return false;
    } finally {
      this.busy = false;
    }
  }
}
