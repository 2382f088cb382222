import { VerbatimError } from '../../../shared/errors';
import { entrySummary } from '../../../shared/glossary/glossary';
import { formatRecordedAt } from '../../../shared/display-format';
import type { GlossarySyncReport, SharedEntry } from '../../../shared/glossary/newsroom-glossary';
import type { Glossaries } from '../glossary/glossaries';
import type { CopyChange, NewsroomCopy, WaitingChange } from '../library/newsroom-glossary-store';
import { newsroomAddressText } from '../newsroom/newsroom-address';
import type { NewsroomConnection } from '../newsroom/newsroom-connection';
import {
  applyGlossaryChange,
  firstGlossaryCursor,
  mayChangeGlossary,
  proposeGlossaryEntry,
  pullGlossaries,
  type SharedEntryRow,
  type SharedProposalRow,
} from '../newsroom/newsroom-glossaries';
import type { CollaborationNotice, CollaborationNoticeSink } from './collaboration-notice';

/**
 * Keeps the library's copies of newsroom glossaries in step (issue #36, point 1): one `sync()`
 * sends the changes and proposals made here (oldest first), then reads what changed in the
 * newsroom since the last pull into the copies. The SyncLoop runs it; the CLI runs it once.
 *
 * Notices go to the sink for what others did, never the user's own doing, each with a key made
 * of what it is about, so reading the same change twice raises it once: a colleague's entry on a
 * glossary of the user's desk, a proposal to one they decide, a change of theirs that lost.
 */
export interface GlossarySyncOptions {
  glossaries: Glossaries;
  /** Runs work on a connection to the newsroom (the app's kept one, or the CLI's own). */
  newsroom: <T>(work: (newsroom: NewsroomConnection) => Promise<T>) => Promise<T>;
  sink?: CollaborationNoticeSink;
  /** The time zone notices' times are written in (the machine's unless given: tests). */
  timeZone?: string;
}

export interface GlossarySync {
  sync(): Promise<GlossarySyncReport>;
}

/** "“Okonkwo” (person, misheard as Okon Quo)", or "removed". */
function described(entry: SharedEntry | null): string {
  if (entry === null) return 'removed';
  const note = entry.note ? `; ${entry.note}` : '';
  return `“${entry.term}” (${entrySummary(entry)}${note})`;
}

export function conflictSentence(
  term: string,
  glossaryName: string,
  current: SharedEntryRow,
  yours: SharedEntry | null,
  timeZone?: string,
): string {
  const did = current.deleted ? 'removed' : 'changed';
  return `Your change to “${term}” in “${glossaryName}” was not applied: ${current.changedBy} ${did} it on ${formatRecordedAt(current.changedAt, timeZone)}, before yours reached the newsroom (the change that reaches the newsroom first wins). Kept: ${described(current.deleted ? null : current)}; yours was: ${described(yours)}.`;
}

function changeSentence(change: CopyChange): string {
  const into = change.action === 'removed' ? 'from' : change.action === 'added' ? 'to' : 'in';
  return `${change.by} ${change.action} “${change.term}” ${into} “${change.glossaryName}”.`;
}

export function createGlossarySync(options: GlossarySyncOptions): GlossarySync {
  const { glossaries } = options;
  const notify = async (notice: CollaborationNotice): Promise<void> => {
    await options.sink?.(notice);
  };

  async function send(
    newsroom: NewsroomConnection,
    key: string,
    report: GlossarySyncReport,
    copies: Map<number, NewsroomCopy>,
  ): Promise<void> {
    for (const change of await glossaries.readNewsroom((store) => store.waitingChanges(key))) {
      const copy = copies.get(change.glossaryId);
      const outcome = await applyGlossaryChange(newsroom, {
        id: change.id,
        glossaryId: change.newsroomGlossaryId,
        termKey: change.termKey,
        baseRevision: change.baseRevision,
        entry: change.entry,
      }).catch((error: unknown) => refused(error, change, copy, report));
      if (outcome === undefined) continue;
      if (outcome.applied) {
        await glossaries.inNewsroom((store) => store.changeApplied(change, outcome.revision));
        report.sent++;
        continue;
      }
      const yours = await glossaries.inNewsroom((store) => store.changeLost(change, outcome.current));
      const term = yours?.term ?? outcome.current.term;
      const text = conflictSentence(term, copy?.name ?? '', outcome.current, yours, options.timeZone);
      report.conflicts.push(text);
      await notify({
        kind: 'glossary-conflict',
        by: outcome.current.changedBy,
        text,
        target: { kind: 'glossary', glossaryId: change.glossaryId, term: outcome.current.term },
        key: `glossary-conflict:${change.id}`,
        at: outcome.current.changedAt,
      });
    }
    for (const proposal of await glossaries.readNewsroom((store) => store.waitingProposals(key))) {
      try {
        await proposeGlossaryEntry(newsroom, {
          id: proposal.id,
          glossaryId: proposal.newsroomGlossaryId,
          entry: proposal.entry,
        });
      } catch (error) {
        if (!(error instanceof VerbatimError && error.code === 'forbidden')) throw error;
        report.conflicts.push(`Your proposal of “${proposal.entry.term}” was not sent: ${error.message}`);
      }
      await glossaries.inNewsroom((store) => store.proposalSent(proposal.id));
      report.proposalsSent++;
    }
  }

  /** A change the newsroom refuses outright (no longer allowed): dropped, and said. */
  async function refused(
    error: unknown,
    change: WaitingChange,
    copy: NewsroomCopy | undefined,
    report: GlossarySyncReport,
  ): Promise<undefined> {
    if (!(error instanceof VerbatimError && error.code === 'forbidden')) throw error;
    await glossaries.inNewsroom((store) => store.changeRefused(change));
    report.conflicts.push(
      `Your change to “${change.entry?.term ?? change.termKey}” in “${copy?.name ?? ''}” was not applied: ${error.message}`,
    );
    return undefined;
  }

  async function pull(newsroom: NewsroomConnection, key: string, report: GlossarySyncReport): Promise<void> {
    const [cursor, known] = await glossaries.readNewsroom((store) => [
      store.cursor(key) ?? firstGlossaryCursor,
      store.knownIds(key),
    ]);
    const pulled = await pullGlossaries(newsroom, cursor, known);
    const me = pulled.identity.user;
    const applied = await glossaries.inNewsroom((store) =>
      store.applyPull(key, {
        cursor: pulled.cursor,
        glossaries: pulled.glossaries.map((glossary) => ({
          ...glossary,
          mayChange: mayChangeGlossary(pulled.identity, glossary),
        })),
        entries: pulled.entries,
        known,
      }),
    );
    report.newCopies.push(...applied.newCopies.map((copy) => copy.name));
    for (const gone of applied.goneCopies)
      report.changes.push(`“${gone}” is no longer shared with you: its copy was removed.`);
    for (const change of applied.changes.filter((each) => each.by !== me)) {
      const text = changeSentence(change);
      report.changes.push(text);
      // "A new glossary entry on your desk": the desk's glossaries, not the whole newsroom's.
      if (change.desk !== null && change.action !== 'removed')
        await notify({
          kind: 'glossary-entry',
          by: change.by,
          text,
          target: { kind: 'glossary', glossaryId: change.glossaryId, term: change.term },
          key: `glossary-entry:${change.newsroomGlossaryId}:${change.termKey}:${change.revision}`,
          at: change.at,
        });
    }
    await proposalNotices(pulled.proposals, me);
  }

  async function proposalNotices(proposals: readonly SharedProposalRow[], me: string): Promise<void> {
    const copies = await glossaries.readNewsroom((store) => store.copies());
    for (const proposal of proposals) {
      const copy = copies.find((each) => each.id === proposal.glossaryId);
      if (!copy?.mayChange || proposal.state !== 'open' || proposal.proposedBy === me) continue;
      await notify({
        kind: 'glossary-proposal',
        by: proposal.proposedBy,
        text: `${proposal.proposedBy} proposes “${proposal.entry.term}” for “${copy.name}”.`,
        target: { kind: 'glossary', glossaryId: copy.glossaryId, term: proposal.entry.term },
        key: `glossary-proposal:${proposal.id}`,
        at: proposal.proposedAt,
      });
    }
  }

  return {
    sync: () =>
      options.newsroom(async (newsroom) => {
        const key = newsroomAddressText(newsroom.address);
        const report: GlossarySyncReport = {
          sent: 0,
          proposalsSent: 0,
          changes: [],
          conflicts: [],
          newCopies: [],
        };
        const copies = new Map(
          (await glossaries.readNewsroom((store) => store.copies(key))).map((copy) => [
            copy.glossaryId,
            copy,
          ]),
        );
        await send(newsroom, key, report, copies);
        await pull(newsroom, key, report);
        return report;
      }),
  };
}
