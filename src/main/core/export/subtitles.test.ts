import { describe, expect, it } from 'vitest';
import { parseSync, type NodeCue } from 'subtitle';
import type { ExportTranscript } from './export-model';
import { defaultSubtitleOptions, maxCharsPerSecond, toSrt, toVtt, type SubtitleOptions } from './subtitles';
import { interview, makeTranscript } from './text-fixtures.test-kit';

/** A long, varied transcript: long and short sentences, pauses, speaker changes, fast speech. */
function longTranscript(): ExportTranscript {
  const vocabulary =
    'the council said budget extraordinary infrastructure a of we will reconsider, tomorrow. yes; no: maybe?'.split(
      ' ',
    );
  let seed = 7;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const lines = Array.from({ length: 60 }, (_, i) => {
    const n = 1 + rand(30);
    const words = Array.from({ length: n }, () => vocabulary[rand(vocabulary.length)] ?? 'word');
    return {
      speaker: rand(4) === 0 ? 'B' : 'A',
      text: `${words.join(' ')}.`,
      pauseMs: rand(3) === 0 ? rand(3000) : 0,
      wordMs: i % 7 === 0 ? 60 : 150 + rand(400),
    };
  });
  return makeTranscript(lines);
}

function cues(text: string): NodeCue['data'][] {
  return parseSync(text)
    .filter((n): n is NodeCue => n.type === 'cue')
    .map((n) => n.data);
}

/** Checks what the brief promises of every subtitle file, from the parsed cues only. */
function checkCues(
  parsed: NodeCue['data'][],
  t: ExportTranscript,
  so: SubtitleOptions,
  stripLabel: (line: string) => string,
  countLabel: boolean,
  checkSync = true,
): void {
  expect(parsed.length).toBeGreaterThan(0);
  let previousEnd = -Infinity;
  for (const c of parsed) {
    expect(c.start).toBeGreaterThanOrEqual(0);
    expect(c.end).toBeGreaterThan(c.start);
    expect(c.end).toBeLessThanOrEqual(t.audioDurationMs ?? Infinity);
    expect(c.end - c.start).toBeLessThanOrEqual(so.maxDurationMs);
    expect(c.start - previousEnd).toBeGreaterThanOrEqual(so.minGapMs);
    previousEnd = c.end;
    const lines = c.text.split('\n');
    expect(lines.length).toBeLessThanOrEqual(so.maxLines);
    for (const line of lines) {
      expect((countLabel ? line : stripLabel(line)).length).toBeLessThanOrEqual(so.charsPerLine);
    }
  }
  // No word split: the caption tokens, in order, are exactly the transcript's words.
  const tokens = parsed.flatMap((c) =>
    c.text.split('\n').map(stripLabel).join(' ').split(/\s+/).filter(Boolean),
  );
  const words = t.sentences.flatMap((s) => s.words);
  expect(tokens).toEqual(words.map((w) => w.text));
  // Each cue is on screen while its words are spoken, give or take the minimum gap. (Not with
  // very short lines and a gap longer than the pause between fast words: cues then lag a little.)
  if (!checkSync) return;
  let k = 0;
  for (const c of parsed) {
    const count = c.text.split('\n').map(stripLabel).join(' ').split(/\s+/).filter(Boolean).length;
    for (const w of words.slice(k, k + count)) {
      expect(w.start).toBeLessThan(c.end + so.minGapMs);
      expect(w.end).toBeGreaterThan(c.start - so.minGapMs);
    }
    k += count;
  }
}

describe('SRT', () => {
  it('keeps every cue inside the audio, in order, within the limits, never splitting a word', () => {
    const t = longTranscript();
    for (const so of [
      defaultSubtitleOptions,
      { ...defaultSubtitleOptions, charsPerLine: 32, maxLines: 1, maxDurationMs: 3000, minGapMs: 200 },
    ]) {
      const { text } = toSrt(t, so);
      const sync = so === defaultSubtitleOptions;
      checkCues(cues(text), t, so, (l) => l.replace(/^(MARIA LOPEZ|SPEAKER B): /, ''), true, sync);
    }
  });

  it('keeps cues inside the audio when the last words run past its stated duration', () => {
    const t = interview();
    const lastEnd = t.sentences[t.sentences.length - 1]?.endMs ?? 0;
    const short = { ...t, audioDurationMs: lastEnd - 200 };
    const parsed = cues(toSrt(short, defaultSubtitleOptions).text);
    expect(parsed.length).toBe(3);
    for (const c of parsed) expect(c.end).toBeLessThanOrEqual(lastEnd - 200);
  });

  it('labels renamed speakers as NAME: and follows redaction', () => {
    const t = interview();
    const parsed = cues(toSrt(t, defaultSubtitleOptions).text);
    expect(parsed[0]?.text).toMatch(/^MARIA LOPEZ: Good morning,/);
    expect(parsed.some((c) => c.text.startsWith('SPEAKER B: Call me at ##########,'))).toBe(true);
    const clear = cues(toSrt(t, defaultSubtitleOptions, { redacted: false }).text);
    expect(clear.some((c) => c.text.includes('5551234567'))).toBe(true);
    const unlabelled = cues(toSrt(t, { ...defaultSubtitleOptions, speakerLabels: false }).text);
    expect(unlabelled.some((c) => /MARIA|SPEAKER/.test(c.text))).toBe(false);
  });

  it('splits after punctuation where it can', () => {
    const t = makeTranscript([
      {
        speaker: 'A',
        text: 'We looked at the numbers again, and the budget still does not add up for next year at all.',
      },
    ]);
    const parsed = cues(toSrt(t, { ...defaultSubtitleOptions, speakerLabels: false, maxLines: 1 }).text);
    expect(parsed[0]?.text).toBe('We looked at the numbers again,');
    const two = makeTranscript([
      { speaker: 'A', text: 'The motion passed.' },
      { speaker: 'A', text: 'Nobody, not even the mayor, expected that result today.' },
    ]);
    const split = cues(toSrt(two, { ...defaultSubtitleOptions, speakerLabels: false, maxLines: 1 }).text);
    expect(split[0]?.text).toBe('The motion passed.');
  });

  it('warns about captions read faster than 17 characters per second', () => {
    const t = makeTranscript([
      { speaker: 'A', text: 'Extraordinarily rapid announcements overwhelm everybody.', wordMs: 80 },
      { speaker: 'A', text: 'Slow.', pauseMs: 100 },
    ]);
    const { text, warnings } = toSrt(t, { ...defaultSubtitleOptions, speakerLabels: false });
    const parsed = cues(text);
    expect(warnings.length).toBeGreaterThan(0);
    for (const w of warnings) {
      const c = parsed[w.index - 1];
      expect(c).toBeDefined();
      const measured = (c?.text.replace(/\n/g, ' ').length ?? 0) / (((c?.end ?? 0) - (c?.start ?? 0)) / 1000);
      expect(measured).toBeGreaterThan(maxCharsPerSecond);
      expect(w.cps).toBeCloseTo(measured, 0);
    }
  });

  it('exports only the quote in a range', () => {
    const t = interview();
    const s = t.sentences[2];
    const parsed = cues(
      toSrt(t, defaultSubtitleOptions, { range: { startMs: s?.startMs ?? 0, endMs: s?.endMs ?? 0 } }).text,
    );
    expect(parsed.map((c) => c.text).join(' ')).toBe('SPEAKER B: Call me at ##########, please.');
  });
});

describe('WebVTT', () => {
  it('keeps every cue inside the audio, in order, within the limits, never splitting a word', () => {
    const t = longTranscript();
    for (const so of [
      defaultSubtitleOptions,
      { ...defaultSubtitleOptions, charsPerLine: 20, maxLines: 3, maxDurationMs: 4000, minGapMs: 120 },
    ]) {
      const { text } = toVtt(t, so);
      expect(text.startsWith('WEBVTT\n\n')).toBe(true);
      checkCues(cues(text), t, so, (l) => l.replace(/^<v [^>]*>/, ''), false, so === defaultSubtitleOptions);
    }
  });

  it('labels renamed speakers with voice tags, escapes markup, and keeps Greek and Arabic', () => {
    const t = makeTranscript(
      [
        { speaker: 'A', text: 'Profits <up> & costs down.' },
        { speaker: 'B', text: 'Καλημέρα σας.' },
        { speaker: 'C', text: 'صباح الخير' },
      ],
      {
        speakers: new Map([
          ['A', 'Maria Lopez'],
          ['B', 'Ελένη'],
          ['C', 'ليلى'],
        ]),
      },
    );
    const parsed = cues(toVtt(t, defaultSubtitleOptions).text);
    expect(parsed.map((c) => c.text)).toEqual([
      '<v Maria Lopez>Profits &lt;up&gt; &amp; costs down.',
      '<v Ελένη>Καλημέρα σας.',
      '<v ليلى>صباح الخير',
    ]);
  });

  it('follows redaction choices', () => {
    const t = interview();
    expect(cues(toVtt(t, defaultSubtitleOptions).text).some((c) => c.text.includes('##########'))).toBe(true);
    const clear = cues(toVtt(t, defaultSubtitleOptions, { redacted: false }).text);
    expect(clear.some((c) => c.text.includes('<v Speaker B>Call me at 5551234567,'))).toBe(true);
  });
});
