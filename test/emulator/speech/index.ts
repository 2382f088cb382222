/**
 * The emulator's speech content engine: pure functions from audio bytes and a transcript request to
 * the transcript's content. No HTTP here; the transcription module serves what this produces.
 */
export { decodeAudio, UnreadableAudioError, type DecodedAudio } from './wav-decode';
export { transcribeAudio } from './transcribe';
export { sentencesOf, paragraphsOf } from './segmentation';
export { redactedAudio } from './redacted-audio';
export { soundOf } from './soundtrack';
export type {
  Entity,
  Paragraph,
  Sentence,
  Timestamp,
  TranscriptRequest,
  TranscriptionOutcome,
  Utterance,
  Word,
} from './types';
