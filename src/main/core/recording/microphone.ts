import { VerbatimError } from '../../../shared/errors';

/** Who may hold the microphone: the interview recorder or the voice assistant. */
export type MicrophoneUser = 'recorder' | 'assistant';

const refusals: Record<MicrophoneUser, string> = {
  recorder:
    'The recorder is using the microphone. Stop the recording to talk to the assistant; the recording goes on meanwhile.',
  assistant: 'The assistant is listening. End the conversation with the assistant to record.',
};

/**
 * One capture at a time (issue #23): an interview recording and an assistant conversation would
 * each open the input device, and on many systems the second one fails or hears nothing. The
 * second to ask is refused with a message naming the one that holds it.
 */
export class Microphone {
  private holder: MicrophoneUser | undefined;

  /** Who holds it now, if anyone. */
  heldBy(): MicrophoneUser | undefined {
    return this.holder;
  }

  /** Takes the microphone for `user`, or says plainly who has it. Taking it again is fine. */
  take(user: MicrophoneUser): void {
    if (this.holder !== undefined && this.holder !== user)
      throw new VerbatimError('conflict', refusals[this.holder]);
    this.holder = user;
  }

  /** Lets it go, if `user` holds it. */
  release(user: MicrophoneUser): void {
    if (this.holder === user) this.holder = undefined;
  }
}
