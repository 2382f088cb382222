import { defaultGlossaryIds, type Glossary } from '../../../shared/glossary/glossary';
import type { GlossaryContribution } from '../../../shared/glossary/glossary-request';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';

/**
 * Which glossaries a new transcription uses (issue #21): those used by default and the preset's,
 * until the journalist ticks or unticks one; then exactly the ones ticked, until another preset
 * is chosen. What they contribute is asked of main for the options as they stand, so the form
 * shows what will be sent and what will not.
 */
export class GlossaryChoice {
  glossaries = $state.raw<Glossary[]>([]);
  /** The ids ticked by hand; undefined while the defaults apply. */
  ticked = $state<number[] | undefined>(undefined);
  contribution = $state.raw<GlossaryContribution | undefined>(undefined);
  problem = $state<Problem | undefined>(undefined);
  loaded = $state(false);
  private asked = 0;

  /** Loads and follows main's changes; the returned function stops following. */
  start(): () => void {
    const stop = api.on('glossaries.changed', () => void this.load());
    void this.load();
    return stop;
  }

  async load(): Promise<void> {
    try {
      this.glossaries = await api.glossaries.list();
      const known = this.glossaries.map((glossary) => glossary.id);
      if (this.ticked) this.ticked = this.ticked.filter((id) => known.includes(id));
      this.loaded = true;
    } catch (error) {
      this.problem = caught(error, 'glossaries.list');
    }
  }

  /** The glossaries that apply, for the preset chosen ('' is the journalist's own defaults). */
  chosenIds(preset: string): number[] {
    return this.ticked ?? defaultGlossaryIds(this.glossaries, preset || undefined);
  }

  /**
   * What a new transcription sends: the glossaries chosen, or nothing before the list has loaded,
   * so main applies the default ones rather than none.
   */
  requestIds(preset: string): number[] | undefined {
    return this.loaded || this.ticked ? this.chosenIds(preset) : undefined;
  }

  toggle(id: number, on: boolean, preset: string): void {
    const current = this.chosenIds(preset).filter((chosen) => chosen !== id);
    this.ticked = on ? [...current, id] : current;
  }

  /** Another preset brings its own glossaries back. */
  useDefaults(): void {
    this.ticked = undefined;
  }

  /** Asks what these glossaries add to these options; only the latest question's answer is kept. */
  async refresh(glossaryIds: number[], options: Record<string, unknown>): Promise<void> {
    const asked = ++this.asked;
    try {
      const contribution = await api.glossaries.contribution({ glossaryIds, options });
      if (asked !== this.asked) return;
      this.contribution = contribution;
      this.problem = undefined;
    } catch (error) {
      if (asked === this.asked) this.problem = caught(error, 'glossaries.contribution');
    }
  }
}
