import type { GlossarySyncReport } from '../../shared/glossary/newsroom-glossary';
import type { Collaboration } from './collaboration/collaboration';
import type { Recorder } from './recording/recorder';
import type { RecordingMarks } from './library/recording-marks';
import type { AppInfo } from '../../shared/ipc/contract';
import type { ExportProgress } from '../../shared/ipc/export-contract';
import type { CatalogOverview } from '../../shared/catalog';
import type { SettingsStore } from './settings/settings-store';
import type { Core } from './app-core';
import type { Signal } from '../base/signal';
import type { JobRecord, NewsroomPublicationRecord } from './library/library';
import type { Secrets } from './secrets/secret-store';
import type { OpenedRecordings } from './app-policy/opened-recordings';
import type { CatalogService } from './catalog/catalog-service';
import type { AskService } from './ask/ask-service';
import type { ExportPlatform } from './export/export-platform';
import type { AssistantService } from './voice/assistant-service';
import type { VoiceConversationStore } from './library/voice-conversation-store';
import type { Logger } from './log/logger';
import type { ServiceAddresses } from '../../shared/service-addresses';
import type { UnsavedEdits } from './app-policy/unsaved-edits';
import type { NewsroomReader } from './newsroom/newsroom-reader';
import type { NewsroomPublisher } from './publishing/newsroom-publisher';
import type { NewsroomKeepProgress } from '../../shared/ipc/newsroom-contract';
import type { StoryReviewChanged } from '../../shared/ipc/story-review-contract';

/**
 * What every handler and event is built from: the app's services, one set per process
 * (compose.ts). Declared in the core, below ipc/, so composing them never imports the IPC layer.
 */
export interface Services extends VoiceServices {
  /** Records interviews (issue #23). */
  recorder: Recorder;
  recordingMarks: RecordingMarks;
  appInfo: AppInfo;
  settings: SettingsStore;
  /** The addresses Verbatim was started with, which win over Settings', and the services' own. */
  addresses: ServiceAddresses;
  secrets: Secrets;
  core: Core;
  jobUpdated: Signal<JobRecord>;
  jobProgress: Signal<{ id: string; bytesSent: number; bytesTotal: number }>;
  /** A transcript the OS asked to show (a notification clicked). */
  openTranscript: Signal<{ id: string }>;
  /** Recordings the OS opened with the app ("Open with", the icon), checked. */
  openRecordings: Signal<OpenedRecordings>;
  dataFolder: { current: string; home: string };
  relaunch?: (() => void) | undefined;
  exportProgress: Signal<ExportProgress>;
  /** OS file dialogs and the default export folder, where the platform has them. */
  exportPlatform?: ExportPlatform | undefined;
  catalog: CatalogService;
  catalogRefreshed: Signal<CatalogOverview>;
  ask: AskService;
  /** The pages' typing not yet stored, asked for before a quit. */
  unsavedEdits: UnsavedEdits;
  /** The process's one log (a file in the data folder); the renderer writes through `log.write`. */
  logger: Logger;
  /** The newsroom of Settings as searches read it: one kept connection, and a LISTEN while watched. */
  newsroomReader: NewsroomReader;
  /**
   * Publishes to the newsroom: `publish`/`unpublish` queue in the library and kick the sender,
   * which retries with backoff while the newsroom is unreachable.
   */
  newsroom: NewsroomPublisher;
  /** A transcript's publication changed state (queued, published, unpublished, failed): for the badges. */
  newsroomPublicationChanged: Signal<NewsroomPublicationRecord>;
  /** The recording of a colleague's transcript being kept in the library downloads. */
  newsroomKeepProgress: Signal<NewsroomKeepProgress>;
  /**
   * Keeps the library's copies of newsroom glossaries in step (issue #36): `sync` runs one now,
   * `wake` asks for one soon. What others did goes to `core.notices`.
   */
  glossarySync: {
    sync(): Promise<GlossarySyncReport>;
    wake(): void;
  };
  /** Working together kept live (issue #36): one loop per kind of shared work, one LISTEN. */
  collaboration: Collaboration;
  /** Shared stories changed here (a comment, an approval) or in the newsroom (read by a sync). */
  storyReviewChanged: Signal<StoryReviewChanged>;
}

/** The assistant's services: the same in the app and the web host. */
export interface VoiceServices {
  assistant: AssistantService;
  conversations: VoiceConversationStore;
  /** Opens the assistant's own window; absent where there are no windows (the web host). */
  openAssistantWindow?: (() => void) | undefined;
}
