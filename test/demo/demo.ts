import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startEmulator, type RunningEmulator } from '../emulator/server';
import type { Core } from '../../src/main/core/app-core';
import { acceleratedClock } from '../../src/main/base/clock';
import { Resampler, bytesForMs } from '../../src/main/core/voice/pcm';
import { decodeAudio } from '../emulator/speech';
import { parseWebPort } from '../../src/web-host/web-port';
import { VerbatimError } from '../../src/shared/errors';

/**
 * `npm run demo:web` and `npm run demo`: Verbatim with the service emulator and a sample
 * library, so a newcomer sees everything working without a key.
 */
const fixtures = resolve(import.meta.dirname, '../fixtures');
const speed = 50;

interface ManifestEntry {
  file: string;
  title: string;
}

const samples: {
  file: string;
  options: Record<string, unknown>;
  tags: string[];
  speakers?: Record<string, string>;
}[] = [
  {
    file: 'interview-ferry-contract.wav',
    options: {
      speaker_labels: true,
      speakers_expected: 2,
      entity_detection: true,
      auto_highlights: true,
      sentiment_analysis: true,
      iab_categories: true,
      content_safety: true,
      redact_pii: true,
      redact_pii_policies: ['phone_number', 'email_address'],
      redact_pii_return_unredacted: true,
    },
    tags: ['ferry', 'council'],
    speakers: { A: 'Daniel Reyes', B: 'Mayor Elena Alvarez' },
  },
  {
    file: 'press-statement.wav',
    options: { speaker_labels: true, entity_detection: true, auto_highlights: true },
    tags: ['press'],
  },
  { file: 'stereo-call.wav', options: { multichannel: true, entity_detection: true }, tags: ['phone call'] },
  { file: 'spanish-clip.wav', options: { language_detection: true }, tags: ['español'] },
];

/** Transcribes the sample recordings through the real pipeline into an empty library. */
export async function seedDemoLibrary(core: Core): Promise<number> {
  if ((await core.library.list({ limit: 1 })).length > 0) return 0;
  const manifest = JSON.parse(readFileSync(join(fixtures, 'manifest.json'), 'utf8')) as Record<
    string,
    ManifestEntry
  >;
  const titles = new Map(Object.values(manifest).map((entry) => [entry.file, entry.title]));
  const ids: { id: string; sample: (typeof samples)[number] }[] = [];
  for (const sample of samples) {
    const job = await core.scheduler.submit({
      source: { kind: 'file', path: join(fixtures, sample.file) },
      title: titles.get(sample.file),
      options: sample.options,
      region: 'us',
    });
    ids.push({ id: job.id, sample });
  }
  await core.scheduler.idle();
  for (const { id, sample } of ids) {
    await core.library.setTags(id, sample.tags);
    for (const [label, name] of Object.entries(sample.speakers ?? {}))
      await core.library.renameSpeaker(id, label, name);
  }
  return ids.length;
}

/** What the demo's assistant is asked, in turn, each time it hears the spoken sample. */
export const demoQuestions = [
  'find what the mayor said about the ferry contract',
  'list my recent transcripts',
  'search for the council vote',
];

/**
 * The assistant's "microphone" in the browser demo: two seconds of the spoken press statement
 * as PCM16 24 kHz mono, then a pause so the agent hears the turn end. Decoded and resampled
 * here, so the demo needs no sox on the user's machine.
 */
export function demoVoiceInput(): Buffer {
  const decoded = decodeAudio(readFileSync(join(fixtures, 'press-statement.wav')));
  const speech = decoded.channels[0]!.subarray(0, decoded.sampleRate * 2);
  const pcm = Buffer.from(speech.buffer, speech.byteOffset, speech.byteLength);
  return Buffer.concat([new Resampler(decoded.sampleRate).push(pcm), Buffer.alloc(bytesForMs(1500))]);
}

/** Every service the app talks to, pointed at the local emulator: nothing leaves the machine. */
export function demoServiceEnvironment(emulator: RunningEmulator): Record<string, string> {
  return {
    VERBATIM_API_KEY: emulator.options.key,
    VERBATIM_TRANSCRIPTION_URL: emulator.url,
    VERBATIM_GATEWAY_URL: emulator.url,
    VERBATIM_CATALOG_URL: emulator.url,
    VERBATIM_CATALOG_KEY: emulator.options.key,
    // The management key too, so the demo shows provider endpoints and counts by output.
    VERBATIM_MANAGEMENT_KEY: emulator.options.managementKey,
    VERBATIM_VOICE_URL: emulator.url,
  };
}

async function queueDemoQuestions(emulator: RunningEmulator): Promise<void> {
  // The emulated agent "hears" queued text; a few rounds of the questions cover a long demo.
  for (let round = 0; round < 10; round++) {
    for (const text of demoQuestions) {
      await fetch(`${emulator.url}/__admin/voice/next-utterance`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text }),
      });
    }
  }
}

/**
 * Opens the library in this process and seeds it. The core, and with it better-sqlite3, is
 * imported here and not at the top of the file: `npm run demo` must never load the addon in
 * its own process (see seedInChildProcess).
 */
async function seedInThisProcess(dataDir: string, transcriptionUrl: string, key: string): Promise<void> {
  const { createCore } = await import('../../src/main/core/app-core');
  const seeding = createCore({
    dataDir,
    apiKey: () => key,
    transcriptionUrl: () => transcriptionUrl,
    // Polling runs at the emulator's speed; the dates saved stay on the wall clock.
    clock: acceleratedClock(speed),
  });
  const seeded = await seedDemoLibrary(seeding);
  await seeding.close();
  if (seeded > 0) console.log(`Sample library ready: ${seeded} recordings transcribed by the emulator.`);
}

/**
 * Seeds the library in a child process and waits until it has ended. `npm start` then swaps
 * better-sqlite3's native addon for the Electron build, and Windows refuses to replace a .node
 * file that a running process has loaded (EPERM): the seeding process must be gone by then, and
 * this one must never have loaded it. The child is this script run by the same Node with the
 * same loader (tsx's, in process.execArgv), so no shell or npx is needed on any system.
 */
async function seedInChildProcess(
  dataDir: string,
  emulator: RunningEmulator,
  closers: (() => Promise<void>)[],
): Promise<void> {
  // A debugger flag would make the child's inspector fight the parent's for the same port.
  const nodeOptions = process.execArgv.filter((option) => !option.startsWith('--inspect'));
  const args = [
    ...nodeOptions,
    fileURLToPath(import.meta.url),
    '--seed-only',
    '--transcription-url',
    emulator.url,
    '--key',
    emulator.options.key,
  ];
  const child = spawn(process.execPath, args, {
    stdio: 'inherit',
    env: { ...process.env, VERBATIM_DATA_DIR: dataDir },
  });
  const ended = new Promise<number | null>((resolveEnd, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolveEnd(signal ? null : code));
  });
  // Stopped while seeding (Ctrl+C, SIGTERM): the child goes too.
  closers.push(() => Promise.resolve(void (child.exitCode === null && child.kill('SIGTERM'))));
  const code = await ended;
  if (code !== 0) throw new Error(`Seeding the sample library failed (exit code ${String(code)}).`);
}

/** The port as a number, or a sentence saying what to change and exit code 2. */
function webPortOrExit(text: string | undefined, source: string): number {
  try {
    return parseWebPort(text, source);
  } catch (error) {
    if (!(error instanceof VerbatimError)) throw error;
    console.error(`demo: ${error.message}`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      electron: { type: 'boolean', default: false },
      port: { type: 'string' },
      // Internal: how `--electron` seeds the library in a process of its own.
      'seed-only': { type: 'boolean', default: false },
      'transcription-url': { type: 'string' },
      key: { type: 'string' },
    },
  });
  const dataDir = process.env.VERBATIM_DATA_DIR ?? join(process.cwd(), '.verbatim-demo');
  if (values['seed-only']) {
    const transcriptionUrl = values['transcription-url'];
    const key = values.key;
    if (!transcriptionUrl || !key) throw new Error('--seed-only needs --transcription-url and --key');
    await seedInThisProcess(dataDir, transcriptionUrl, key);
    return;
  }
  // `npm run demo:web -- --port N`, or VERBATIM_WEB_PORT as for `npm run start:web`.
  // The desktop app opens no port of its own.
  const port = values.electron
    ? 0
    : values.port !== undefined
      ? webPortOrExit(values.port, '--port')
      : webPortOrExit(process.env.VERBATIM_WEB_PORT, 'VERBATIM_WEB_PORT');
  // Stop handlers go in first, so a Ctrl+C at any moment shuts down what has started.
  const closers: (() => Promise<void>)[] = [];
  const stop = (): void => {
    void (async () => {
      for (const close of closers.reverse()) await close().catch(() => undefined);
      process.exit(0);
    })();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const emulator: RunningEmulator = await startEmulator({ port: 0, speed });
  closers.push(() => emulator.close());
  console.log(`Service emulator (transcription, gateway, catalog, voice agent) at ${emulator.url}`);
  await queueDemoQuestions(emulator);
  const services = demoServiceEnvironment(emulator);

  if (values.electron) {
    try {
      await seedInChildProcess(dataDir, emulator, closers);
    } catch (error) {
      await emulator.close();
      throw error;
    }
    const env = { ...process.env, ...services, VERBATIM_DATA_DIR: dataDir };
    const app = spawn('npm', ['start'], { stdio: 'inherit', env, shell: process.platform === 'win32' });
    app.on('exit', (code) => void emulator.close().then(() => process.exit(code ?? 0)));
    closers.push(() => Promise.resolve(void app.kill('SIGTERM')));
    return;
  }
  // The web demo never swaps addons: it seeds in its own process, which then serves the library.
  await seedInThisProcess(dataDir, emulator.url, emulator.options.key);
  const { startWebApp } = await import('../../src/web-host/start');
  const host = await startWebApp({
    dataDir,
    apiKey: services.VERBATIM_API_KEY,
    transcriptionUrl: services.VERBATIM_TRANSCRIPTION_URL,
    gatewayUrl: services.VERBATIM_GATEWAY_URL,
    catalogUrl: services.VERBATIM_CATALOG_URL,
    catalogKey: services.VERBATIM_CATALOG_KEY,
    managementKey: services.VERBATIM_MANAGEMENT_KEY,
    voiceUrl: services.VERBATIM_VOICE_URL,
    voiceInput: demoVoiceInput(),
    timeScale: speed,
    port,
  });
  closers.push(() => host.close());
  console.log(`Verbatim demo is running at ${host.openUrl}`);
  console.log(
    'Every service it uses is the emulator above: no key needed, nothing leaves your machine. ' +
      `The assistant hears a spoken sample and is asked: "${demoQuestions[0]}". Ctrl+C stops it.`,
  );
}

// Compared as URLs: a path written into "file://…" by hand matches on no Windows path
// (C:\…) and on no path with a space in it, and the demo would silently do nothing.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
