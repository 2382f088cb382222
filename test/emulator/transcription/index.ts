import type { EmulatorApp } from '../types';
import { registerExportRoutes } from './export-routes';
import { registerTranscriptRoutes } from './transcript-routes';
import { TranscriptionState } from './transcription-state';
import { registerUploadRoutes } from './upload-routes';

/**
 * The pre-recorded transcription service (AssemblyAI-style /v2 API): uploads, transcripts
 * with their status machine and webhooks, and the exports of a finished transcript. The
 * speech itself comes from ../speech; this module is the HTTP side.
 */
export function register(app: EmulatorApp): void {
  const state = new TranscriptionState(app.clock, app.options.dataDir, app.options.idSeed);
  registerUploadRoutes(app, state);
  registerTranscriptRoutes(app, state);
  registerExportRoutes(app, state);
  app.shared.transcriptText = (id, region) => state.completedText(id, region);
  app.onReset(() => state.reset());
}
