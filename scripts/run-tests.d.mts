/** One stage of `npm test` (see run-tests.mjs). */
export interface Stage {
  name: string;
  command: string[];
  gate?: boolean;
  needs?: string;
}

export interface StageResult {
  name: string;
  outcome: 'passed' | 'failed' | 'not run';
  detail: string;
}

export const stages: Stage[];

export function runStages(
  plan: Stage[],
  run?: (command: string[]) => Promise<number | null>,
): Promise<StageResult[]>;

export function summary(results: StageResult[]): string;
