import { parentPort, workerData } from 'node:worker_threads';
import { VerbatimError } from '../../../shared/errors';
import { openDatabase, type Db, type UpgradeStepId } from './database';
import { migrations } from './migrations/index';
import { planUpgrade, progressAt, type LibraryRows, type PlannedStep } from './upgrade-plan';
import type { UpgradeWorkerMessage } from './library-upgrade';

/**
 * The library upgrade off the main thread (library-upgrade.ts starts it): openDatabase as
 * always (the lock, the backup, the migrations), with each step's start posted as progress.
 * Thin on purpose: the plan and its estimate are upgrade-plan.ts's.
 */
const port = parentPort!;
const post = (message: UpgradeWorkerMessage): void => port.postMessage(message);
const startedAt = performance.now();
let plan: PlannedStep[] = [];
const doneMs: number[] = [];
let stepStartedAt = startedAt;

function stepStarting(id: UpgradeStepId): void {
  const now = performance.now();
  const index = plan.findIndex((step) => step.id === id);
  if (index > 0) doneMs.push(now - stepStartedAt);
  stepStartedAt = now;
  if (index >= 0) post({ type: 'progress', progress: progressAt(plan, index, doneMs, now - startedAt) });
}

try {
  const db = openDatabase((workerData as { path: string }).path, migrations, {
    onWaitingForUpgrade: () => post({ type: 'waiting' }),
    upgradeObserver: {
      starting: (opened, fromVersion) => {
        plan = planUpgrade(
          fromVersion,
          migrations.map((migration) => migration.version),
          countRows(opened),
        );
      },
      step: stepStarting,
    },
  });
  db.close();
  post({ type: 'done', elapsedMs: Math.round(performance.now() - startedAt), upgraded: plan.length > 0 });
} catch (error) {
  post({
    type: 'failed',
    error:
      error instanceof VerbatimError
        ? error.toPayload()
        : { code: 'internal', message: error instanceof Error ? error.message : String(error) },
  });
}

/** The rows an upgrade's cost grows with; a format before the sentences (1) has none. */
function countRows(db: Db): LibraryRows {
  const hasSentences = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sentences'")
    .get();
  if (!hasSentences) return { sentences: 0 };
  return { sentences: (db.prepare('SELECT count(*) AS n FROM sentences').get() as { n: number }).n };
}
