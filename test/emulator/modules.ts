import type { EmulatorApp } from './types';
import { register as registerTranscription } from './transcription/index';
import { register as registerGateway } from './gateway/index';
import { register as registerCatalog } from './catalog/index';
import { register as registerVoice } from './voice/index';

/** Every service the emulator serves. Each module owns its routes and state. */
export function registerModules(app: EmulatorApp): void {
  registerTranscription(app);
  registerGateway(app);
  registerCatalog(app);
  registerVoice(app);
}
