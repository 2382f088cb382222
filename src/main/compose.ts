import { join } from 'node:path';
import { SettingsStore } from './core/settings/settings-store';
import { nodeFileSystem } from './base/fs';
import { createCore, type Core } from './core/app-core';
import type { OpenedRecordings } from './core/app-policy/opened-recordings';
import { Signal } from './base/signal';
import type { AppInfo } from '../shared/ipc/contract';
import type { Settings } from '../shared/settings';
import type { Services } from './core/app-services';
import type { JobRecord, NewsroomPublicationRecord } from './core/library/library';
import type { Clock } from './base/clock';
import type { Secrets } from './core/secrets/secret-store';
import type { ExportProgress } from '../shared/ipc/export-contract';
import type { StoryReviewChanged } from '../shared/ipc/story-review-contract';
import type { NewsroomKeepProgress } from '../shared/ipc/newsroom-contract';
import type { ExportPlatform } from './core/export/export-platform';
import { systemClock, wallTimeWithPacingOf } from './base/clock';
import { createCatalogService } from './core/catalog/catalog-setup';
import type { CatalogOverview } from '../shared/catalog';
import { createAskService } from './core/ask/ask-service';
import { composeAssistant } from './core/voice/compose-assistant';
import type { AssistantAudio } from './core/voice/assistant-service';
import { silentLogger, type Logger } from './core/log/logger';
import { DisposableStore } from './base/lifecycle';
import type { FetchLike } from './core/http/http-client';
import { statfs } from 'node:fs/promises';
import { Microphone } from './core/recording/microphone';
import { Recorder, noRecordingInput, type RecordingInput } from './core/recording/recorder';
import { serviceAddresses } from './core/settings/service-addresses';
import { Shutdown } from './base/shutdown';
import { UnsavedEdits } from './core/app-policy/unsaved-edits';
import { parseNewsroomAddress, settingsNaming, type NewsroomAccess } from './core/newsroom/newsroom-address';
import { NewsroomPublisher } from './core/publishing/newsroom-publisher';
import { NewsroomReader, settingsNewsroomAccess } from './core/newsroom/newsroom-reader';
import { libraryRecordings } from './core/export/library-story-export';
import { createGlossarySync } from './core/collaboration/glossary-sync';
import { Collaboration } from './core/collaboration/collaboration';
import { createStoryReviewSync, reviewerOf } from './core/collaboration/story-review-sync';

/**
 * How long a quit waits for each phase of closing (the work, the pages' connections, the
 * library): long enough to store typing and finish a recording's file, short enough that a
 * stuck upload never keeps the app from quitting.
 */
export const closeBoundMs = 5_000;

export interface ComposeOptions {
  dataDir: string;
  /** The app's own data folder, where a moved library leaves its forwarding address. */
  defaultDataDir?: string;
  /** Restarts the app (Electron); absent where a restart is the user's job (the web host). */
  relaunch?: () => void;
  appInfo: Omit<AppInfo, 'dataDir'>;
  /** Where keys are kept: the OS key store in the app, memory in the web host. */
  secrets: Secrets;
  /** Environment overrides (VERBATIM_TRANSCRIPTION_URL) win over Settings. */
  transcriptionUrlOverride?: string;
  /** VERBATIM_CATALOG_URL: wins over the catalog address in Settings. */
  catalogUrlOverride?: string;
  /** VERBATIM_GATEWAY_URL: the language-model gateway's address, over Settings. */
  gatewayUrlOverride?: string;
  clock?: Clock;
  /** The process's one log (a rotating file in the data folder); silent when absent. */
  logger?: Logger;
  /** How the transcription client reaches the network (tests record where requests go). */
  fetch?: FetchLike;
  /** Who this process is, for another process on the same folder ("the Verbatim app"). */
  processDescription?: string;
  /** OS file dialogs (Electron) and the default export folder. */
  exportPlatform?: ExportPlatform;
  /** The assistant's microphone and speaker (PortAudio in the app, a file in the web host). */
  voiceAudio?: AssistantAudio;
  /** VERBATIM_VOICE_URL: wins over Settings' voiceUrl. */
  voiceUrlOverride?: string;
  /** Opens the assistant's window (the app only). */
  openAssistantWindow?: () => void;
  /** Where interviews are recorded from (PortAudio in the app, a raw PCM file in the web host). */
  recordingInput?: RecordingInput;
  /**
   * The newsroom to publish to, read at each send, or undefined while none is set (publishing
   * then queues: "waiting to publish"). None unless given.
   */
  newsroomAccess?: () => NewsroomAccess | undefined;
}

/**
 * The composition root shared by the Electron main process and the web host: both build
 * the very same services from a data folder, and differ only in transport and platform.
 */
export function composeServices(options: ComposeOptions): ComposedServices {
  const logger = options.logger ?? silentLogger;
  const log = logger.child('main');
  // What these services opened (subscriptions), closed with them.
  const lifetime = new DisposableStore();
  const settings = new SettingsStore(nodeFileSystem, join(options.dataDir, 'settings.json'));
  // Settings are read asynchronously once; the core needs them synchronously per request. No job
  // is sent anywhere before they are in: a job resumed at start-up would otherwise go to the
  // default address instead of the one set in Settings (the scheduler waits on this).
  let current: Settings | undefined;
  const settingsLoaded = settings.get().then((value) => {
    current ??= value;
  });
  settingsLoaded.catch((error: unknown) =>
    log.error('the settings could not be read: no job is sent until Verbatim starts again', error),
  );
  lifetime.add(settings.onChange((value) => (current = value)));

  const jobUpdated = new Signal<JobRecord>();
  const jobProgress = new Signal<{ id: string; bytesSent: number; bytesTotal: number }>();
  const core: Core = createCore({
    dataDir: options.dataDir,
    apiKey: () => options.secrets.peek('transcriptionKey'),
    transcriptionUrl: (region) =>
      options.transcriptionUrlOverride ||
      (region === 'eu' ? current?.transcriptionUrlEu : current?.transcriptionUrlUs) ||
      undefined,
    clock: options.clock,
    fetch: options.fetch,
    ready: settingsLoaded,
    onJob: (job) => jobUpdated.emit(job),
    onUploadProgress: (id, bytesSent, bytesTotal) => jobProgress.emit({ id, bytesSent, bytesTotal }),
    logger,
    processDescription: options.processDescription,
  });
  const catalogRefreshed = new Signal<CatalogOverview>();
  const catalog = createCatalogService({
    cache: core.database.catalogCache,
    catalogKey: () => options.secrets.peek('catalogKey'),
    managementKey: () => options.secrets.peek('managementKey'),
    region: () => current?.catalogRegion ?? 'us',
    urlOverride: () => options.catalogUrlOverride || current?.catalogUrl || undefined,
    // The catalog's age is shown to the journalist: dated on the wall clock, even when the
    // clock that paces retries runs fast (the demo, tests).
    clock: wallTimeWithPacingOf(options.clock ?? systemClock),
    onRefreshed: (overview) => catalogRefreshed.emit(overview),
    log: (message) => logger.child('catalog').warn(message),
  });
  const ask = createAskService({
    core,
    apiKey: () => options.secrets.peek('transcriptionKey'),
    gatewayUrl: () => options.gatewayUrlOverride || current?.gatewayUrl || undefined,
    settings: () => settings.get(),
  });
  const microphone = new Microphone();
  const voice = lifetime.add(
    composeAssistant({
      core,
      settings,
      secrets: options.secrets,
      audio: options.voiceAudio,
      voiceUrlOverride: options.voiceUrlOverride,
      microphone,
    }),
  );
  const recordingMarks = core.database.recordingMarks;
  const recorder = lifetime.add(
    new Recorder({
      input: options.recordingInput ?? noRecordingInput,
      recordings: core.recordings,
      marks: recordingMarks,
      folder: () => join(options.dataDir, 'recordings'),
      microphone,
      freeBytes: async (folder) => {
        const stats = await statfs(folder);
        return stats.bavail * stats.bsize;
      },
      onUnexpected: (error) => log.error('the recorder failed', error),
    }),
  );
  // Once a recording's transcript is in, its marked moments become highlights.
  const placeMarks = (transcriptId: string): void => {
    recordingMarks
      .place(transcriptId, {
        sentences: (id) => core.library.sentences(id),
        highlight: (input) => core.library.createHighlight(input),
      })
      .catch((error: unknown) => log.error('the marked moments could not become highlights', error));
  };
  lifetime.add(
    jobUpdated.subscribe((job) => {
      if (job.status === 'completed') placeMarks(job.id);
    }),
  );
  // The newsroom Settings names, read at each send: its address a setting, its password in the
  // key store. An address Settings refused is never stored, so one that does not parse is none.
  const newsroomInSettings = (): NewsroomAccess | undefined => {
    const text = current?.newsroomAddress ?? '';
    const password = options.secrets.peek('newsroomPassword');
    if (text === '' || password === undefined) return undefined;
    try {
      return { address: parseNewsroomAddress(text, 'The newsroom address', settingsNaming), password };
    } catch (error) {
      log.error('the newsroom address in Settings could not be read: nothing is published', error);
      return undefined;
    }
  };
  // Publishing offline first: what is queued in the library goes to the newsroom when it answers.
  const newsroomPublicationChanged = new Signal<NewsroomPublicationRecord>();
  const newsroomKeepProgress = new Signal<NewsroomKeepProgress>();
  const newsroom = new NewsroomPublisher({
    onChange: (publication) => newsroomPublicationChanged.emit(publication),
    library: core.library,
    access: options.newsroomAccess ?? newsroomInSettings,
    // Leases and retries are dated as the library dates them: on the wall clock.
    clock: wallTimeWithPacingOf(options.clock ?? systemClock),
    logger: logger.child('newsroom'),
    audio: {
      recordingOf: (id, audio) => core.recordingOf(id, audio),
      findRecording: libraryRecordings(core.library, core.redactions),
    },
  });
  // What a quit waits for, owner by owner, the library last (base/shutdown.ts).
  const shutdown = new Shutdown(log);
  // No item is claimed after this; one on its way is recorded before the library closes.
  shutdown.onWillShutdown('the newsroom', () => newsroom.close());
  // A newsroom set (or changed) in Settings is sent what waits at once. The handler stores the
  // password before the address, so this sees both.
  let newsroomAddress = current?.newsroomAddress;
  lifetime.add(
    settings.onChange((value) => {
      if (value.newsroomAddress === newsroomAddress) return;
      newsroomAddress = value.newsroomAddress;
      newsroom.wake();
    }),
  );
  // Searching and opening the newsroom of Settings: one connection kept, closed with the app and
  // replaced when Settings name another newsroom or password.
  const newsroomReader = new NewsroomReader({
    access: async () =>
      settingsNewsroomAccess(
        (await settings.get()).newsroomAddress,
        options.secrets.peek('newsroomPassword'),
      ),
    onWatchLost: (error) =>
      log.warn('the newsroom search lost its change notifications, reconnecting', error),
  });
  shutdown.onWillShutdown('the newsroom search', () => newsroomReader.close());
  lifetime.add(
    settings.onChange(() => {
      newsroomReader
        .refresh()
        .catch((error: unknown) => log.error('the newsroom search could not follow Settings', error));
    }),
  );
  // Working together (issue #36): each kind of shared work sends what waits and reads what
  // changed, run at start, after a change made here, and when the newsroom says its kind changed
  // (one LISTEN for all kinds); nothing runs while no newsroom is set. What others did becomes a notice.
  const glossarySync = createGlossarySync({
    glossaries: core.glossaries,
    newsroom: (work) => newsroomReader.use(work),
    sink: core.notices.sink,
  });
  // Stories an editor reviews: the reviewer is whoever Settings name at each run.
  const storyReviewChanged = new Signal<StoryReviewChanged>();
  const reviewStories = async (): Promise<void> => {
    const access = newsroomInSettings();
    if (!access) return;
    const { refused } = await createStoryReviewSync({
      library: core.library,
      newsroom: (work) => newsroomReader.use(work),
      reviewer: reviewerOf(access.address),
      findRecording: libraryRecordings(core.library, core.redactions),
      sink: core.notices.sink,
    }).sync();
    for (const sentence of refused) log.warn(`the newsroom refused a story review change: ${sentence}`);
    // Every window reads its shared stories again: a colleague's comment may have arrived.
    storyReviewChanged.emit({ keys: [] });
  };
  const collaboration = lifetime.add(
    new Collaboration({
      access: () => Promise.resolve(newsroomInSettings()),
      kinds: { glossary: async () => void (await glossarySync.sync()), story: reviewStories },
      clock: options.clock ?? systemClock,
      logger: logger.child('collaboration'),
    }),
  );
  lifetime.add(
    settings.onChange(() => {
      collaboration
        .refresh()
        .catch((error: unknown) => log.error('working together could not follow Settings', error));
    }),
  );
  // A story changed here: a shared one is shared again as its next revision by the next run.
  lifetime.add(core.library.storiesChanged.subscribe(() => void collaboration.changed('story')));
  // A sync's own writes announce a change too: only what waits to be sent asks for another run.
  lifetime.add(
    core.glossaries.changed.subscribe(() => {
      core.glossaries
        .readNewsroom((store) => store.copies().some((copy) => copy.waiting > 0))
        .then((waiting) => {
          if (waiting) void collaboration.changed('glossary');
        })
        .catch((error: unknown) => log.error('the newsroom glossaries could not be read', error));
    }),
  );
  // The assistant says goodbye; a recording running at quit is finished properly, its file
  // closed and its length kept; the uploads stop where they are and resume at the next start.
  shutdown.onWillShutdown('the assistant', () => voice.assistant.close());
  shutdown.onWillShutdown('the recording', () => recorder.stop());
  shutdown.onWillShutdown('the uploads', () => core.scheduler.stop());
  shutdown.onWillShutdown(
    'the library',
    async () => {
      // Every subscription (and a session that would not close) goes before the library does.
      try {
        lifetime.dispose();
      } finally {
        await core.close();
      }
    },
    'library',
  );
  return {
    recorder,
    recordingMarks,
    unsavedEdits: new UnsavedEdits(),
    shutdown,
    assistant: voice.assistant,
    conversations: voice.conversations,
    openAssistantWindow: options.openAssistantWindow,
    appInfo: { ...options.appInfo, dataDir: options.dataDir },
    settings,
    addresses: serviceAddresses({
      transcription: options.transcriptionUrlOverride,
      catalog: options.catalogUrlOverride,
      gateway: options.gatewayUrlOverride,
    }),
    secrets: options.secrets,
    core,
    dataFolder: { current: options.dataDir, home: options.defaultDataDir ?? options.dataDir },
    relaunch: options.relaunch,
    jobUpdated,
    jobProgress,
    openTranscript: new Signal<{ id: string }>(),
    openRecordings: new Signal<OpenedRecordings>(),
    exportProgress: new Signal<ExportProgress>(),
    exportPlatform: options.exportPlatform,
    catalog,
    catalogRefreshed,
    ask,
    logger,
    newsroom,
    newsroomPublicationChanged,
    newsroomKeepProgress,
    storyReviewChanged,
    newsroomReader,
    collaboration,
    glossarySync: {
      sync: () => glossarySync.sync(),
      wake: () => void collaboration.changed('glossary'),
    },
    start: async () => {
      // Unreadable settings were reported above; the jobs then wait (the scheduler's `ready`).
      await settingsLoaded.catch(() => undefined);
      // A recording a crash cut short is repaired before anything else (issue #23).
      const recovered = await core.recordings
        .recover()
        .catch((error: unknown) => (log.error('repairing unfinished recordings failed', error), []));
      if (recovered.length > 0)
        log.info(
          `repaired ${recovered.length} recording${recovered.length === 1 ? '' : 's'} a crash had cut short`,
        );
      // Marks of a transcript that completed while the app was closing.
      for (const transcriptId of recordingMarks.waitingTranscripts()) placeMarks(transcriptId);
      // What waited to be published or shared when the app last closed, and what colleagues did meanwhile.
      newsroom.wake();
      void collaboration.start();
      const resumed = await core.scheduler.resumeAll();
      if (resumed > 0) log.info(`resumed ${resumed} unfinished job${resumed === 1 ? '' : 's'}`);
      return resumed;
    },
    close: async () => void (await shutdown.shutdown(closeBoundMs)),
  };
}

export interface ComposedServices extends Services {
  /**
   * Starts the work: once the settings are read, every job left unfinished by a quit or a crash
   * continues where it stopped. Resolves with how many.
   */
  start(): Promise<number>;
  /** What a quit waits for: a transport adds its own owners (the pages' typing, its connections). */
  shutdown: Shutdown;
  /**
   * Closes every owner of `shutdown` (the assistant, the recording, the uploads, then the
   * library), each phase bounded by `closeBoundMs`; runs once, never rejects.
   */
  close(): Promise<void>;
}
