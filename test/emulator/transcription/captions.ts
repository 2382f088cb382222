/**
 * SRT and WebVTT export of a transcript's words. Words are packed into captions of at most
 * `charsPerCaption` characters (a longer single word gets a caption of its own); a caption
 * runs from its first word's start to its last word's end, so cues stay in order and inside
 * the audio.
 */

export interface TimedWord {
  text: string;
  start: number;
  end: number;
}

export interface Caption {
  start: number;
  end: number;
  text: string;
}

/** Used without chars_per_caption: the real service's default is not documented; about two short lines. */
const DEFAULT_CHARS_PER_CAPTION = 80;

export function captionsOf(
  words: readonly TimedWord[],
  charsPerCaption = DEFAULT_CHARS_PER_CAPTION,
): Caption[] {
  const captions: Caption[] = [];
  let current: Caption | undefined;
  for (const word of words) {
    if (current && current.text.length + 1 + word.text.length <= charsPerCaption) {
      current.text += ` ${word.text}`;
      current.end = word.end;
    } else {
      current = { start: word.start, end: word.end, text: word.text };
      captions.push(current);
    }
  }
  return captions;
}

function clockTime(ms: number, fractionSeparator: ',' | '.'): string {
  const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const seconds = Math.floor(ms / 1000) % 60;
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}${fractionSeparator}${pad(ms % 1000, 3)}`;
}

export function toSrt(captions: readonly Caption[]): string {
  return captions
    .map(
      (caption, index) =>
        `${index + 1}\n${clockTime(caption.start, ',')} --> ${clockTime(caption.end, ',')}\n${caption.text}\n`,
    )
    .join('\n');
}

export function toVtt(captions: readonly Caption[]): string {
  const cues = captions.map(
    (caption) => `${clockTime(caption.start, '.')} --> ${clockTime(caption.end, '.')}\n${caption.text}\n`,
  );
  return ['WEBVTT\n', ...cues].join('\n');
}
