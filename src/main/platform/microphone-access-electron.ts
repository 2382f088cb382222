import { systemPreferences } from 'electron';
import type { MicrophoneAccess } from '../core/voice/microphone-access';

/**
 * The microphone permission as macOS keeps it. A hardened, signed app that opens the microphone
 * without having asked gets silence, not an error — so the assistant asks before its first
 * capture: 'granted' goes ahead; 'denied' or 'restricted' (parental controls, MDM) is answered
 * without a prompt, since macOS would not show one again anyway; 'not-determined' (or an
 * 'unknown' macOS could not tell) shows the system prompt, which macOS shows once. Windows and Linux have no such prompt for desktop apps: granted.
 */
export function electronMicrophoneAccess(
  platform: NodeJS.Platform = process.platform,
): () => Promise<MicrophoneAccess> {
  // Two starts while the prompt is up get its one answer, not two prompts.
  let asking: Promise<MicrophoneAccess> | undefined;
  return async () => {
    if (platform !== 'darwin') return 'granted';
    const status = systemPreferences.getMediaAccessStatus('microphone');
    if (status === 'granted') return 'granted';
    if (status === 'denied' || status === 'restricted') return 'denied';
    asking ??= systemPreferences
      .askForMediaAccess('microphone')
      .then((granted): MicrophoneAccess => (granted ? 'granted' : 'denied'))
      .finally(() => (asking = undefined));
    return asking;
  };
}
