import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { defaultAskTemplates } from '../../../shared/ask';
import { createCore, type Core } from '../app-core';
import { acceleratedClock } from '../../base/clock';
import type { FetchLike } from '../http/http-client';
import { createAskService, type AskService, type AskSettings } from './ask-service';

/**
 * Test support for Ask: the emulator (transcription and gateway), a core over a fresh data
 * folder that has transcribed the ferry-contract interview, and an Ask service over that core
 * talking to the emulator's gateway.
 */
export interface AskTestbed {
  emulator: RunningEmulator;
  core: Core;
  dataDir: string;
  transcriptId: string;
  service: AskService;
}

const speed = 200;
const interview = resolve(import.meta.dirname, '../../../../test/fixtures/interview-ferry-contract.wav');

/** The settings Ask starts with: one model, no fallbacks, the default templates. */
export function defaultAskSettings(): AskSettings {
  return { askModel: 'claude-sonnet-4-5', askFallbackModels: [], askTemplates: defaultAskTemplates };
}

export async function startAskTestbed(setup: {
  /** The start of the temporary data folder's name. */
  folderPrefix: string;
  /** The transcription options the interview is submitted with. */
  options: Record<string, unknown>;
  settings?: () => Promise<AskSettings>;
  /** What the service's gateway requests go through, to watch them. */
  fetch?: FetchLike;
}): Promise<AskTestbed> {
  const emulator = await startEmulator({ port: 0, speed });
  const dataDir = mkdtempSync(join(tmpdir(), setup.folderPrefix));
  const core = createCore({
    dataDir,
    apiKey: () => emulator.options.key,
    transcriptionUrl: () => emulator.url,
    clock: acceleratedClock(speed),
  });
  const job = await core.scheduler.submit({
    source: { kind: 'file', path: interview },
    options: setup.options,
    region: 'us',
  });
  await core.scheduler.idle();
  const service = createAskService({
    core,
    apiKey: () => emulator.options.key,
    gatewayUrl: () => emulator.url,
    settings: setup.settings ?? (() => Promise.resolve(defaultAskSettings())),
    fetch: setup.fetch,
  });
  return { emulator, core, dataDir, transcriptId: job.id, service };
}

/** Closes the core and the emulator and removes the data folder. */
export async function closeAskTestbed(testbed: AskTestbed): Promise<void> {
  await testbed.core.close();
  await testbed.emulator.close();
  rmSync(testbed.dataDir, { recursive: true, force: true });
}
