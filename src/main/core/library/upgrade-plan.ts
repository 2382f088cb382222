import type { UpgradeStepId } from './database';

/**
 * What a library upgrade will do and how long it should take, in the journalist's words: the
 * plan the progress window and the command line show. Pure: the rows are counted by the worker
 * (library-upgrade-worker.ts) and the clock is read by whoever calls it.
 */

/**
 * What an upgrade's cost grows with, counted before it starts (a cheap COUNT query): every
 * slow step rewrites or copies the sentences and their search index, which are most of a library.
 */
export interface LibraryRows {
  sentences: number;
}

export interface PlannedStep {
  id: UpgradeStepId;
  label: string;
  estimatedMs: number;
}

/** Where an upgrade stands: what the window and the command line show. */
export interface UpgradeProgress {
  /** The step under way, from 1. */
  step: number;
  steps: number;
  label: string;
  elapsedMs: number;
  estimatedRemainingMs: number;
}

/** A step's cost: a fixed part and a part per row it rewrites. */
interface StepCost {
  fixedMs: number;
  perSentenceUs: number;
}

/** A step that only adds tables or columns: milliseconds whatever the library's size. */
const schemaOnly: StepCost = { fixedMs: 5, perSentenceUs: 0 };

/**
 * Calibrated from the bench "search: time to upgrade … (opening it: backup, migrations 11 to
 * 14)" (docs/benchmarks.md): 24,911 ms for 600,000 sentences (41.5 µs a sentence) and
 * 327,810 ms for 6,000,000 (54.6 µs), split between the steps as this worker measured them on a
 * generated library of 200,000 sentences (8.6 s, 43 µs a sentence: backup 1,083 ms, 12.6 %;
 * migration 11 1,650 ms, 19.2 %; migration 12 2,092 ms, 24.3 %; migration 14 3,662 ms, 42.6 %).
 * The 10,000-hour rate is used: an overestimate at 1,000 hours rather than a promise broken,
 * which the correction by the steps already done takes back after the backup.
 */
export const backupCost: StepCost = { fixedMs: 20, perSentenceUs: 6.9 };
export const searchPrefixesCost: StepCost = { fixedMs: 10, perSentenceUs: 10.5 };
export const searchFacetsCost: StepCost = { fixedMs: 10, perSentenceUs: 13.3 };
export const searchDatesCost: StepCost = { fixedMs: 10, perSentenceUs: 23.3 };

/** Each migration in the journalist's words, and what it costs; see migrations/index.ts. */
const migrationSteps: ReadonlyMap<number, { label: string; cost: StepCost }> = new Map([
  [1, { label: 'Setting up the library', cost: schemaOnly }],
  [2, { label: 'Setting up search', cost: schemaOnly }],
  [3, { label: 'Preparing transcriptions to resume after a crash', cost: schemaOnly }],
  [4, { label: 'Making room for the model catalog', cost: schemaOnly }],
  [5, { label: 'Making room for Ask conversations', cost: schemaOnly }],
  [6, { label: 'Making room for voice conversations', cost: schemaOnly }],
  [7, { label: 'Making room for your corrections', cost: schemaOnly }],
  [8, { label: 'Making room for highlights and stories', cost: schemaOnly }],
  [9, { label: 'Putting your quotes in order', cost: schemaOnly }],
  [10, { label: 'Making room for the newsroom glossary', cost: schemaOnly }],
  [11, { label: 'Rebuilding the search index for faster search', cost: searchPrefixesCost }],
  [12, { label: 'Adding tags and speakers to the search index', cost: searchFacetsCost }],
  [13, { label: 'Making room for recordings', cost: schemaOnly }],
  [14, { label: 'Adding recording dates to the search index', cost: searchDatesCost }],
  [15, { label: 'Making room for recording marks', cost: schemaOnly }],
  [16, { label: 'Letting the app and the command line share jobs', cost: schemaOnly }],
  [20, { label: 'Making room for newsroom glossaries', cost: schemaOnly }],
]);

export const backupLabel = 'Backing up your library';

function estimate(cost: StepCost, rows: LibraryRows): number {
  return cost.fixedMs + (cost.perSentenceUs * rows.sentences) / 1000;
}

/**
 * The steps of upgrading a library at `fromVersion` to the last of `versions`: the backup
 * (database.ts takes one of any library that already had a format), then each newer migration.
 */
export function planUpgrade(
  fromVersion: number,
  versions: readonly number[],
  rows: LibraryRows,
): PlannedStep[] {
  const pending = versions.filter((version) => version > fromVersion);
  if (pending.length === 0) return [];
  const backup: PlannedStep[] =
    fromVersion > 0 ? [{ id: 'backup', label: backupLabel, estimatedMs: estimate(backupCost, rows) }] : [];
  return [
    ...backup,
    ...pending.map((version) => {
      const step = migrationSteps.get(version) ?? { label: 'Updating the library', cost: schemaOnly };
      return { id: version, label: step.label, estimatedMs: estimate(step.cost, rows) };
    }),
  ];
}

/**
 * Below this much estimated work done, the steps so far are too short to say how fast this
 * machine is (their fixed costs are guesses), so the estimate is left as planned.
 */
const minimumEstimateToCorrectMs = 250;

/**
 * Where the upgrade stands as step `index` (from 0) starts, the steps before it having taken
 * `doneMs`: the remaining steps' estimate scaled by how much slower or faster this machine
 * was than planned on the steps already done (time observed / time assumed).
 */
export function progressAt(
  plan: readonly PlannedStep[],
  index: number,
  doneMs: readonly number[],
  elapsedMs: number,
): UpgradeProgress {
  const assumedSoFar = sum(plan.slice(0, doneMs.length).map((step) => step.estimatedMs));
  const correction = assumedSoFar >= minimumEstimateToCorrectMs ? sum(doneMs) / assumedSoFar : 1;
  const remaining = sum(plan.slice(index).map((step) => step.estimatedMs)) * correction;
  return {
    step: index + 1,
    steps: plan.length,
    label: plan[index]?.label ?? '',
    elapsedMs: Math.round(elapsedMs),
    estimatedRemainingMs: Math.round(remaining),
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** "about 4 minutes left", as the window and the command line say it. */
export function describeTimeLeft(ms: number): string {
  if (ms < 10_000) return 'a few seconds left';
  if (ms < 55_000) return `about ${Math.round(ms / 10_000) * 10} seconds left`;
  if (ms < 90 * 60_000) {
    const minutes = Math.max(1, Math.round(ms / 60_000));
    return `about ${minutes} minute${minutes === 1 ? '' : 's'} left`;
  }
  const hours = Math.round(ms / 3_600_000);
  return `about ${hours} hour${hours === 1 ? '' : 's'} left`;
}

/** How long the upgrade took: "24 s", "5 min 30 s". */
export function describeDuration(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const rest = seconds % 60;
  return rest === 0 ? `${seconds / 60} min` : `${Math.floor(seconds / 60)} min ${rest} s`;
}

/** One line of the command line's and web host's account of an upgrade. */
export function progressLine({ step, steps, label, estimatedRemainingMs }: UpgradeProgress): string {
  return `Upgrading the library, step ${step} of ${steps}: ${label.charAt(0).toLowerCase()}${label.slice(1)}, ${describeTimeLeft(estimatedRemainingMs)}.`;
}

/** The last line: the library is ready. */
export function upgradeDoneLine(elapsedMs: number): string {
  return `Library updated in ${describeDuration(elapsedMs)}.`;
}
