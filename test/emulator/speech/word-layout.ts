import type { SpeechRegion, Timestamp } from './types';

/**
 * Puts words on the timeline: a fixture's script, or filler words for unknown audio, laid over the
 * speech regions the energy detector found, so every word sits where a voice actually sounds.
 */

export interface PlacedWord {
  text: string;
  start: number;
  end: number;
  /** Script speaker ('A', 'B', ...) or filler block speaker. */
  speaker: string;
}

export interface ScriptTurn {
  speaker: string;
  text: string;
}

/** Each word is given time in proportion to its length; half a character's time separates words. */
const WORD_SHARE_OF_SLOT = 0.5;
/** A word that would get less than this share of its time before a pause starts after the pause. */
const MIN_SHARE_BEFORE_PAUSE = 0.4;
/** A pause this long between regions starts a new speaker block in filler audio. */
const SPEAKER_BLOCK_PAUSE_MS = 1000;
const FILLER_WORDS_PER_SECOND = 2.5;

function tokenize(text: string): string[] {
  return text.split(/\s+/).filter((token) => token.length > 0);
}

/** Distributes tokens over the regions' speech time (regions concatenated), in proportion to length. */
function layOverRegions(tokens: readonly string[], regions: readonly SpeechRegion[]): Timestamp[] {
  const speechTotal = regions.reduce((sum, region) => sum + region.end - region.start, 0);
  const totalWeight = tokens.reduce((sum, token) => sum + token.length + 1, 0);
  const scale = totalWeight === 0 ? 0 : speechTotal / totalWeight;
  const placed: Timestamp[] = [];
  let regionIndex = 0;
  let regionVirtualStart = 0;
  let weightBefore = 0;
  let previousVirtualEnd = 0;
  for (const token of tokens) {
    // A word moved past a pause pushes the next ones along, so words never overlap.
    let virtualStart = Math.max(weightBefore * scale, previousVirtualEnd);
    const duration = (token.length + WORD_SHARE_OF_SLOT) * scale;
    weightBefore += token.length + 1;
    let region = regions[regionIndex];
    while (region !== undefined && regionIndex < regions.length - 1) {
      const regionVirtualEnd = regionVirtualStart + region.end - region.start;
      const left = regionVirtualEnd - virtualStart;
      if (left > MIN_SHARE_BEFORE_PAUSE * duration) break;
      regionVirtualStart = regionVirtualEnd;
      virtualStart = Math.max(virtualStart, regionVirtualStart);
      regionIndex++;
      region = regions[regionIndex];
    }
    if (region === undefined) break;
    const start = Math.min(region.end - 1, Math.floor(region.start + virtualStart - regionVirtualStart));
    const end = Math.max(start + 1, Math.min(region.end, Math.round(start + duration)));
    previousVirtualEnd = regionVirtualStart + end - region.start;
    placed.push({ start, end });
  }
  return placed;
}

/**
 * Splits the regions into one group per turn at the largest pauses (turns are separated by longer
 * pauses than the phrases within a turn), then lays each turn's words over its group. With fewer
 * regions than turns the pauses cannot be told apart, and the whole script is laid over all regions.
 */
export function alignScript(turns: readonly ScriptTurn[], regions: readonly SpeechRegion[]): PlacedWord[] {
  const tokensOf = turns.map((turn) => tokenize(turn.text));
  if (regions.length < turns.length) {
    const speakers = turns.flatMap((turn, index) => (tokensOf[index] ?? []).map(() => turn.speaker));
    const tokens = tokensOf.flat();
    return layOverRegions(tokens, regions).map((time, index) => ({
      text: tokens[index] ?? '',
      speaker: speakers[index] ?? 'A',
      ...time,
    }));
  }
  const boundaries = regions
    .slice(1)
    .map((region, index) => ({ after: index, pause: region.start - (regions[index] as SpeechRegion).end }))
    .sort((a, b) => b.pause - a.pause || a.after - b.after)
    .slice(0, turns.length - 1)
    .map((gap) => gap.after)
    .sort((a, b) => a - b);
  const words: PlacedWord[] = [];
  let firstRegion = 0;
  turns.forEach((turn, index) => {
    const lastRegion = boundaries[index] ?? regions.length - 1;
    const tokens = tokensOf[index] ?? [];
    const times = layOverRegions(tokens, regions.slice(firstRegion, lastRegion + 1));
    times.forEach((time, tokenIndex) =>
      words.push({ text: tokens[tokenIndex] ?? '', speaker: turn.speaker, ...time }),
    );
    firstRegion = lastRegion + 1;
  });
  return words;
}

const FILLER_VOCABULARY = (
  'the council meeting report we said that people will review plan today and city budget after ' +
  'week it was clear about project more time need local service on community next year some ' +
  'questions remain open for new school road team is working with residents a decision soon they ' +
  'agreed to share details later this morning in order keep everyone informed of changes our ' +
  'office has been busy support from many groups really matters'
).split(' ');

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

/**
 * Filler for audio that is not a fixture: about 2.5 words per second of speech, sentences of 6 to 14
 * words, and a new speaker (cycling through `speakerCount` letters) after every long pause.
 */
export function fillerWords(
  regions: readonly SpeechRegion[],
  random: () => number,
  speakerCount: number,
): PlacedWord[] {
  const words: PlacedWord[] = [];
  let block = 0;
  let sentenceLeft = 0;
  regions.forEach((region, index) => {
    const previous = regions[index - 1];
    if (previous !== undefined && region.start - previous.end >= SPEAKER_BLOCK_PAUSE_MS) block++;
    const speaker = String.fromCharCode(65 + (block % Math.max(1, speakerCount)));
    const count = Math.max(1, Math.round(((region.end - region.start) / 1000) * FILLER_WORDS_PER_SECOND));
    const tokens: string[] = [];
    for (let i = 0; i < count; i++) {
      let token = pick(FILLER_VOCABULARY, random);
      if (sentenceLeft === 0) {
        token = token.charAt(0).toUpperCase() + token.slice(1);
        sentenceLeft = 6 + Math.floor(random() * 9);
      }
      sentenceLeft--;
      if (sentenceLeft === 0 || i === count - 1) {
        token += '.';
        sentenceLeft = 0;
      }
      tokens.push(token);
    }
    layOverRegions(tokens, [region]).forEach((time, tokenIndex) =>
      words.push({ text: tokens[tokenIndex] ?? '', speaker, ...time }),
    );
  });
  return words;
}
