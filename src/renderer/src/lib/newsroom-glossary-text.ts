import type { Glossary, NewsroomGlossaryStatus } from '../../../shared/glossary/glossary';
import { mayNotChange, sharedWith, whoChanges } from '../../../shared/glossary/newsroom-glossary';

/**
 * A newsroom glossary's copy as the Glossary view says it (issue #36, point 1): where it is
 * shared, whose it is and who changes it, what waits to be sent, and what a proposal became.
 */

/** "Shared with City · owner ana · you may change it", or "… · editors and ana change it". */
export function sharedLine(status: Pick<NewsroomGlossaryStatus, 'desk' | 'owner' | 'mayChange'>): string {
  const who = status.mayChange ? 'you may change it' : `editors and ${status.owner} change it`;
  return `Shared with ${sharedWith(status.desk)} · owner ${status.owner} · ${who}`;
}

/** "2 changes wait to be sent"; nothing to say when nothing waits. */
export function waitingLine(waiting: number): string | undefined {
  if (waiting <= 0) return undefined;
  return waiting === 1 ? '1 change waits to be sent' : `${waiting} changes wait to be sent`;
}

/** What "Add to the newsroom glossary" did: added to the copy, or proposed to those who decide. */
export function newsroomEntrySentence(
  term: string,
  glossary: { name: string; newsroom: Pick<NewsroomGlossaryStatus, 'desk' | 'owner'> },
  proposed: boolean,
): string {
  const { desk, owner } = glossary.newsroom;
  return proposed
    ? `Proposed “${term}” to ${whoChanges(owner, desk)}: they decide whether it goes in.`
    : `Added “${term}” to “${glossary.name}”, shared with ${sharedWith(desk)}.`;
}

/** "1 proposal", "3 proposals". */
export function proposalsHeading(count: number): string {
  return count === 1 ? '1 proposal' : `${count} proposals`;
}

/**
 * Why this reporter may not change a glossary's entries (a newsroom copy they only propose to),
 * the reason each disabled control gives; undefined where they may.
 */
export function changeRefusal(glossary: Pick<Glossary, 'name' | 'newsroom'>): string | undefined {
  const status = glossary.newsroom;
  return status && !status.mayChange ? mayNotChange({ name: glossary.name, ...status }) : undefined;
}
