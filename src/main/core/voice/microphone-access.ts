import { VerbatimError } from '../../../shared/errors';

/**
 * Whether the OS lets Verbatim hear the microphone. macOS asks the user once and remembers the
 * answer; the platform asks (microphone-access-electron.ts), the core only acts on the answer,
 * and where there is no one to ask (the CLI, the web host) it counts as granted.
 */
export type MicrophoneAccess = 'granted' | 'denied';

/** The refusal, with the way to undo it: macOS never asks a second time by itself. */
export function microphoneRefused(): VerbatimError {
  return new VerbatimError(
    'forbidden',
    'Verbatim is not allowed to use the microphone. To allow it, open System Settings → Privacy & Security → Microphone, then turn on Verbatim. If macOS asks, quit and reopen Verbatim.',
  );
}
