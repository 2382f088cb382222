import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { errorCodes, VerbatimError } from '../../../shared/errors';
import { migrations } from './migrations/index';
import { progressLine, upgradeDoneLine, type UpgradeProgress } from './upgrade-plan';

/**
 * A library made by an older Verbatim is upgraded off the main thread, with its progress told
 * as it goes (a large library's upgrade is minutes: the window, the command line and the web
 * host say what is happening). A library already at the latest format, or a new one, is left
 * to openDatabase as before: no worker, no delay.
 */

const progressSchema = z.object({
  step: z.number().int().positive(),
  steps: z.number().int().positive(),
  label: z.string(),
  elapsedMs: z.number().nonnegative(),
  estimatedRemainingMs: z.number().nonnegative(),
});

const workerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress'), progress: progressSchema }),
  z.object({ type: z.literal('waiting') }),
  z.object({ type: z.literal('done'), elapsedMs: z.number().nonnegative(), upgraded: z.boolean() }),
  z.object({
    type: z.literal('failed'),
    error: z.object({ code: z.enum(errorCodes), message: z.string(), details: z.unknown().optional() }),
  }),
]);

/** What the worker posts (library-upgrade-worker.ts). */
export type UpgradeWorkerMessage = z.infer<typeof workerMessageSchema>;

export interface UpgradeListener {
  onProgress?: (progress: UpgradeProgress) => void;
  /** Another process is upgrading this library; this one waits for it (database.ts's lock). */
  onWaitingForUpgrade?: () => void;
}

/**
 * Whether opening the library at `path` would upgrade it: it exists and has an older format
 * than this Verbatim's. Anything unreadable says no, and openDatabase then refuses it in words.
 */
export function upgradePending(path: string): boolean {
  if (!existsSync(path)) return false;
  let version: number;
  try {
    const db = new Database(path, { fileMustExist: true });
    try {
      version = db.pragma('user_version', { simple: true }) as number;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
  return version > 0 && version < migrations.at(-1)!.version;
}

/**
 * Upgrades the library at `path` in a worker thread when an upgrade is pending; resolves with
 * how long it took, or undefined when there was nothing to do (or another process did it
 * while this one waited). A library that cannot be upgraded rejects with openDatabase's words.
 */
export async function upgradeLibraryOffThread(
  path: string,
  listener: UpgradeListener = {},
): Promise<{ elapsedMs: number } | undefined> {
  if (!upgradePending(path)) return undefined;
  const outcome = await new Promise<UpgradeWorkerMessage>((resolveOutcome, reject) => {
    const worker = startUpgradeWorker(path);
    worker.on('message', (raw: unknown) => {
      const message = workerMessageSchema.parse(raw);
      if (message.type === 'progress') listener.onProgress?.(message.progress);
      else if (message.type === 'waiting') listener.onWaitingForUpgrade?.();
      else resolveOutcome(message);
    });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new VerbatimError('internal', `The library upgrade stopped unexpectedly (exit code ${code}).`)),
    );
  });
  if (outcome.type === 'failed') throw VerbatimError.fromPayload(outcome.error);
  return outcome.type === 'done' && outcome.upgraded ? { elapsedMs: outcome.elapsedMs } : undefined;
}

/** Said once while another process upgrades the library this one opens. */
export const waitingForUpgrade = 'Another Verbatim is upgrading the library; waiting…';

/**
 * Upgrades an old library off the main thread, saying each step, any wait for another
 * process's upgrade, and how long it took, a sentence at a time: what the command line and
 * the web host write on standard error (never standard output, which may be piped JSON).
 */
export async function upgradeSayingEachStep(path: string, say: (sentence: string) => void): Promise<void> {
  const upgraded = await upgradeLibraryOffThread(path, {
    onProgress: (progress) => say(progressLine(progress)),
    onWaitingForUpgrade: () => say(waitingForUpgrade),
  });
  if (upgraded) say(upgradeDoneLine(upgraded.elapsedMs));
}

/**
 * The worker: built, the bundle's own file beside the main process's (electron.vite.config.ts
 * names it an entry); from source (tsx, vitest), the TypeScript file through tsx's loader.
 */
function startUpgradeWorker(path: string): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const workerFile = fromSource ? './library-upgrade-worker.ts' : './library-upgrade-worker.js';
  const workerUrl = new URL(workerFile, import.meta.url);
  if (!fromSource) return new Worker(workerUrl, { workerData: { path } });
  const tsx = pathToFileURL(tsxEsmApi()).href;
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl.href)}); })`;
  return new Worker(boot, { eval: true, workerData: { path } });
}

/** tsx's ESM API file (its package's `import` export: the CommonJS one cannot register hooks in a worker). */
function tsxEsmApi(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return join(dirname(manifestPath), manifest.exports['./esm/api']!.import.default);
}
