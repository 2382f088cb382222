import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutraliseControls, terminalIo } from './cli-io';
import { actedOnByTerminal } from './terminal-controls.test-kit';

/** Strings rich in what a hostile title carries: escapes, controls, bidi marks, and plain text. */
const hostileText = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
      fc.constantFrom(
        '\x1b[31m',
        '\x1b]0;owned\x07',
        '\x1b[2J',
        '\r',
        '\u009b2J',
        '\u202e',
        '\u2067',
        '\t',
        '\n',
      ),
    ),
  )
  .map((parts) => parts.join(''));

describe('terminal output', () => {
  it('carries no character a terminal acts on, whatever the text', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        expect(neutraliseControls(text)).not.toMatch(actedOnByTerminal);
      }),
    );
  });

  it('keeps tabs, newlines and every printable character as they are', () => {
    fc.assert(
      // Without backslashes of its own, every escape in the output is one the function added.
      fc.property(
        hostileText.filter((text) => !text.includes('\\')),
        (text) => {
          const shown = neutraliseControls(text);
          // Removing the escapes added leaves the text without its controls, nothing else changed.
          expect(shown.replace(/\\u00[0-9a-f]{2}|\\u20[26][0-9a-f]/g, '')).toBe(
            text.replace(new RegExp(actedOnByTerminal.source, 'gu'), ''),
          );
        },
      ),
    );
  });

  it('leaves JSON valid and parsing to the very same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), hostileText, (value, title) => {
        const document = { title, value };
        const printed = neutraliseControls(JSON.stringify(document, null, 2));
        expect(printed).not.toMatch(actedOnByTerminal);
        expect(JSON.parse(printed)).toEqual(JSON.parse(JSON.stringify(document)));
      }),
    );
  });

  it('neutralises every stream a command writes to, and lets only the progress line redraw itself', () => {
    const written: string[] = [];
    const io = terminalIo({
      out: (text) => written.push(`out:${text}`),
      err: (text) => written.push(`err:${text}`),
      write: (text) => written.push(`write:${text}`),
      isTty: true,
      env: {},
    });
    io.out('\x1b[2Jtitle');
    io.err('\x1b]0;owned\x07 failed\n');
    io.write?.('\u202eword');
    io.progress('\x1b[31mred');
    expect(written).toEqual([
      'out:\\u001b[2Jtitle',
      'err:\\u001b]0;owned\\u0007 failed\n',
      'write:\\u202eword',
      'err:\r\x1b[2K\\u001b[31mred',
    ]);
  });
});
