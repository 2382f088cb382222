import { join, resolve } from 'node:path';
import { mkdirSync, readFileSync } from 'node:fs';
import { startWebHost } from './web-host';
import { VerbatimError } from '../shared/errors';
import { parseWebPort } from './web-port';
import { composeServices } from '../main/compose';
import { MemorySecrets } from '../main/core/secrets/secret-store';
import { acceleratedClock } from '../main/base/clock';
import { resolveDataFolder } from '../main/core/data-folder/data-folder';
import { createDispatcher } from '../main/ipc/dispatcher';
import { createHandlers } from '../main/ipc/create-handlers';
import { wireEvents } from '../main/ipc/events';
import { rawFileAudio } from '../main/core/voice/raw-file-audio';
import { rawPcmRecordingInput } from '../main/core/recording/raw-pcm-input';
import type { AssistantAudio } from '../main/core/voice/assistant-service';
import { openLog } from '../main/core/log/open-log';
import { upgradeSayingEachStep } from '../main/core/library/library-upgrade';

/**
 * `npm run start:web`: Verbatim's UI in a browser, where Electron is unavailable. The same
 * services and handlers as the desktop app, over the web host's transport.
 */
export interface WebAppOptions {
  dataDir: string;
  port?: number;
  token?: string;
  apiKey?: string;
  transcriptionUrl?: string;
  /** The model catalog's keys and address (VERBATIM_CATALOG_KEY, VERBATIM_MANAGEMENT_KEY, VERBATIM_CATALOG_URL). */
  catalogKey?: string;
  managementKey?: string;
  catalogUrl?: string;
  /** The language-model gateway's address (the emulator's, in tests). */
  gatewayUrl?: string;
  /** Runs the scheduler's clock faster, to match an emulator started with --speed. */
  timeScale?: number;
  /**
   * Where exports go by default (else Documents). A browser has no OS save dialog, so the page
   * asks for a path, starting from this folder.
   */
  exportDir?: string;
  /** The voice agent's address (VERBATIM_VOICE_URL). */
  voiceUrl?: string;
  /**
   * What the assistant's "microphone" hears: raw PCM16 24 kHz mono (VERBATIM_VOICE_INPUT names
   * a file). The browser has no sound card here; the agent's voice goes to assistant-output.raw.
   */
  voiceInput?: Buffer;
  /** How much faster than real time the voice input plays. */
  voiceInputSpeed?: number;
  /**
   * What the recorder's "microphone" hears: raw PCM16 mono (VERBATIM_RECORD_INPUT names a file)
   * at `recordInputRate` (VERBATIM_RECORD_INPUT_RATE, default 48000), played `recordInputSpeed`
   * times faster than real time (VERBATIM_RECORD_INPUT_SPEED), then silence.
   */
  recordInput?: Buffer;
  recordInputRate?: number;
  recordInputSpeed?: number;
  /** The recorder's input fails at the end of `recordInput`, as an unplugged device does. */
  recordInputUnplugged?: boolean;
  /**
   * The assistant's devices outright, over voiceInput: for tests of what the desktop app's
   * platform can say (a sound system that failed to load, a microphone macOS refused).
   */
  voiceAudio?: AssistantAudio;
}

/** A running web app: the host, and the services behind it (tests stand in for the OS through them). */
export type WebApp = Awaited<ReturnType<typeof startWebApp>>;

export async function startWebApp(options: WebAppOptions) {
  mkdirSync(options.dataDir, { recursive: true });
  // A library moved from Settings left its new address in the folder it was in.
  const dataDir = await resolveDataFolder(options.dataDir, undefined);
  mkdirSync(dataDir, { recursive: true });
  // A library an older Verbatim left is upgraded first, each step said on standard error.
  await upgradeSayingEachStep(join(dataDir, 'library.sqlite'), (sentence) =>
    process.stderr.write(`verbatim: ${sentence}\n`),
  );
  const voiceInput =
    options.voiceInput ??
    (process.env.VERBATIM_VOICE_INPUT ? readFileSync(process.env.VERBATIM_VOICE_INPUT) : undefined);
  const recordInput =
    options.recordInput ??
    (process.env.VERBATIM_RECORD_INPUT ? readFileSync(process.env.VERBATIM_RECORD_INPUT) : undefined);
  const secrets = new MemorySecrets({
    transcriptionKey: options.apiKey ?? process.env.VERBATIM_API_KEY,
    catalogKey: options.catalogKey ?? process.env.VERBATIM_CATALOG_KEY,
    managementKey: options.managementKey ?? process.env.VERBATIM_MANAGEMENT_KEY,
  });
  // The web host's log: <data>/logs/verbatim.log, like the app's, keys and transcript text kept out.
  const { logger, path: logFile } = openLog({
    dataDir: options.dataDir,
    level: process.env.VERBATIM_LOG_LEVEL,
    secrets: () => secrets,
  });
  logger.child('main').info('the Verbatim web host started');
  const services = composeServices({
    dataDir,
    processDescription: 'the Verbatim web host',
    defaultDataDir: options.dataDir,
    appInfo: {
      name: 'Verbatim',
      version: process.env.npm_package_version ?? '0.0.0',
      platform: process.platform,
    },
    secrets,
    logger,
    transcriptionUrlOverride: options.transcriptionUrl ?? process.env.VERBATIM_TRANSCRIPTION_URL,
    catalogUrlOverride: options.catalogUrl ?? process.env.VERBATIM_CATALOG_URL,
    gatewayUrlOverride: options.gatewayUrl ?? process.env.VERBATIM_GATEWAY_URL,
    clock: options.timeScale && options.timeScale !== 1 ? acceleratedClock(options.timeScale) : undefined,
    exportPlatform: options.exportDir ? { defaultFolder: options.exportDir } : undefined,
    voiceUrlOverride: options.voiceUrl ?? process.env.VERBATIM_VOICE_URL,
    recordingInput: recordInput
      ? rawPcmRecordingInput({
          pcm: recordInput,
          sampleRate: options.recordInputRate ?? Number(process.env.VERBATIM_RECORD_INPUT_RATE || 48_000),
          speed: options.recordInputSpeed ?? Number(process.env.VERBATIM_RECORD_INPUT_SPEED || 1),
          unplugged: options.recordInputUnplugged ?? false,
        })
      : undefined,
    voiceAudio:
      options.voiceAudio ??
      (voiceInput
        ? rawFileAudio({
            input: voiceInput,
            outputPath: join(dataDir, 'assistant-output.raw'),
            speed: options.voiceInputSpeed,
          })
        : undefined),
  });
  // Settings first, then the unfinished jobs resume (at the address Settings name).
  await services.start();
  const dispatch = createDispatcher(createHandlers(services), { logger: logger.child('ipc') });
  const host = await startWebHost({
    dispatch,
    connectEvents: (emit) => wireEvents(services, emit),
    rendererDir: resolve('out/renderer'),
    bridgeFile: resolve('out/web-bridge/bridge.js'),
    port: options.port,
    token: options.token,
    importDir: join(dataDir, 'imports'),
    recordingOf: (id, audio) => services.core.recordingOf(id, audio),
    logError: (message, error) => logger.child('web-host').error(message, error),
    logRefusal: (message) => logger.child('web-host').warn(message),
  });
  // A quit first asks every page to store its typing, over the sockets still open; then the
  // host closes, then the library.
  services.shutdown.onWillShutdown('the pages’ unsaved typing', () =>
    services.unsavedEdits.flush(host.pages()),
  );
  services.shutdown.onWillShutdown('the web host', () => host.close(), 'connections');
  return {
    ...host,
    services,
    logFile,
    close: () => services.close(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dataDir = process.env.VERBATIM_DATA_DIR ?? join(process.cwd(), '.verbatim-data');
  let host: Awaited<ReturnType<typeof startWebApp>>;
  try {
    const port = parseWebPort(process.env.VERBATIM_WEB_PORT, 'VERBATIM_WEB_PORT');
    host = await startWebApp({ dataDir, port });
  } catch (error) {
    // A library this version cannot open (newer, damaged, unreadable) or a port that is no
    // port is said in a sentence.
    if (!(error instanceof VerbatimError)) throw error;
    console.error(`verbatim: ${error.message}`);
    process.exit(error.code === 'storage' ? 1 : 2);
  }
  console.log(`Verbatim is running in your browser at ${host.openUrl}`);
  console.log(`Data folder: ${dataDir}. Press Ctrl+C to stop.`);
  // Ctrl+C or a SIGTERM quits in order (the typing stored, a recording's file finished); the
  // shutdown runs once however many signals arrive, and never hangs (compose.ts closeBoundMs).
  const stop = (): void => void host.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
