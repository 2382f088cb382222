import {
  defaultGlossaryName,
  type Glossary,
  type GlossaryEntry,
  type NewGlossaryEntry,
} from '../../../shared/glossary/glossary';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';

/**
 * The glossaries as the reader needs them (issue #21): which spellings they have already, so a
 * respelling or a detected name is offered only when it is new, and adding one to a glossary.
 * Followed while any reader part that uses it is shown.
 */
class GlossarySpellings {
  glossaries = $state.raw<Glossary[]>([]);
  /** Every glossary's spellings, lower case. */
  known = $state.raw<string[]>([]);
  problem = $state<Problem | undefined>(undefined);
  private users = 0;
  private stopFollowing: (() => void) | undefined;

  /** Follows main's changes while at least one caller has not stopped. */
  start(): () => void {
    if (this.users++ === 0) {
      this.stopFollowing = api.on('glossaries.changed', () => void this.load());
      void this.load();
    }
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      if (--this.users === 0) this.stopFollowing?.();
    };
  }

  async load(): Promise<void> {
    try {
      const [glossaries, entries] = await Promise.all([api.glossaries.list(), api.glossaries.entries({})]);
      this.glossaries = glossaries;
      this.known = entries.map((entry) => entry.term.toLocaleLowerCase());
      this.problem = undefined;
    } catch (error) {
      this.problem = caught(error, 'glossaries.entries');
    }
  }

  isKnown(spelling: string): boolean {
    return this.known.includes(spelling.trim().toLocaleLowerCase());
  }

  /** Where a name goes unless the journalist chooses: General, else the first used by default. */
  get preferred(): Glossary | undefined {
    return (
      this.glossaries.find((glossary) => glossary.name === defaultGlossaryName) ??
      this.glossaries.find((glossary) => glossary.usedByDefault) ??
      this.glossaries[0]
    );
  }

  /**
   * Adds an entry, or merges its misheard forms into the one the glossary has already: the entry
   * stored and whether it is new, undefined when refused (`problem` says why).
   */
  async add(
    glossaryId: number,
    entry: NewGlossaryEntry,
  ): Promise<{ entry: GlossaryEntry; created: boolean } | undefined> {
    try {
      const added = await api.glossaries.addEntry({ glossaryId, entry });
      this.known = [...this.known, added.entry.term.toLocaleLowerCase()];
      this.problem = undefined;
      return added;
    } catch (error) {
      this.problem = caught(error, 'glossaries.addEntry');
      return undefined;
    }
  }

  /**
   * "Add to the newsroom glossary": added to a copy this reporter may change, else proposed to
   * those who decide (stored first, sent by the sync). Undefined when refused (`problem` says why).
   */
  async propose(glossaryId: number, entry: NewGlossaryEntry): Promise<{ proposed: boolean } | undefined> {
    try {
      const outcome = await api.glossaries.propose({ glossaryId, entry });
      if (!outcome.proposed) this.known = [...this.known, entry.term.trim().toLocaleLowerCase()];
      this.problem = undefined;
      return outcome;
    } catch (error) {
      this.problem = caught(error, 'glossaries.propose');
      return undefined;
    }
  }

  /** The newsroom glossaries' copies in this library. */
  get newsroomCopies(): Glossary[] {
    return this.glossaries.filter((glossary) => glossary.newsroom !== undefined);
  }

  nameOf(glossaryId: number): string {
    return this.glossaries.find((glossary) => glossary.id === glossaryId)?.name ?? 'the glossary';
  }
}

export const glossarySpellings = new GlossarySpellings();

/**
 * Applied fixes make their entries the most recently used. The fixes are stored by then: a
 * failure here is logged and said, never taken for the fixes failing.
 */
export async function markUsed(fixes: readonly { entryId: number }[]): Promise<void> {
  try {
    const entryIds = fixes.map((fix) => fix.entryId).filter((id, index, all) => all.indexOf(id) === index);
    await api.glossaries.markUsed({ entryIds });
  } catch (error) {
    glossarySpellings.problem = caught(error, 'glossaries.markUsed');
  }
}
