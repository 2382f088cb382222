/** Shapes of the transcript's content, as the spec's sub-object table gives them (times in ms). */

export interface Word {
  text: string;
  start: number;
  end: number;
  confidence: number;
  speaker: string | null;
  /** Only with multichannel: the real service documents a `channel` ("1", "2", ...) on each word. */
  channel?: string;
}

export interface Utterance {
  text: string;
  start: number;
  end: number;
  confidence: number;
  speaker: string;
  words: Word[];
  /** Only with multichannel (documented by the real service). */
  channel?: string;
  /** Only with translation and match_original_utterance (documented by the real service). */
  translated_texts?: Record<string, string>;
}

export interface Sentence {
  text: string;
  start: number;
  end: number;
  confidence: number;
  words: Word[];
  speaker: string | null;
  /** Only with multichannel (documented by the real service). */
  channel?: string;
}

export interface Paragraph {
  text: string;
  start: number;
  end: number;
  confidence: number;
  words: Word[];
}

export interface Entity {
  entity_type: string;
  text: string;
  start: number;
  end: number;
}

export interface Timestamp {
  start: number;
  end: number;
}

/** The validated POST /v2/transcript body (request parameters of the spec, snake_case). */
export type TranscriptRequest = Record<string, unknown>;

export type TranscriptionOutcome =
  { status: 'completed'; fields: Record<string, unknown> } | { status: 'error'; error: string };

/** A stretch of the recording where the energy says someone is speaking (ms). */
export interface SpeechRegion {
  start: number;
  end: number;
}
