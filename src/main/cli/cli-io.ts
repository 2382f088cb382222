/** Where a command's output goes: the terminal or a pipe, and its environment. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  isTty: boolean;
  env: NodeJS.ProcessEnv;
  /** Text as it streams (ask --stream), without a newline. */
  write?: (text: string) => void;
}

/** What commands write to: a CliIo that cannot move the cursor, plus the one line that may (progress). */
export interface TerminalIo extends CliIo {
  /** Replaces the progress line on a terminal: the only output allowed to move the cursor. */
  progress: (text: string) => void;
}

/**
 * The characters a terminal acts on rather than shows: C0 controls but tab and newline
 * (ESC starts colour, title and clear-screen sequences; CR overwrites a line), DEL, C1 controls
 * (U+009B is CSI on some terminals) and the bidi overrides and isolates that reorder what
 * follows them on screen (U+202A–U+202E, U+2066–U+2069).
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const terminalControls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A title, a file name or a quote made harmless for a terminal: each control character is shown
 * as its `\uXXXX` escape, so a reporter sees it is there and nothing on screen changes. The same
 * escape is JSON's, and these characters can only stand inside a JSON string (JSON.stringify
 * escapes C0 itself): JSON output stays valid and parses to the very same text.
 */
export function neutraliseControls(text: string): string {
  return text.replace(
    terminalControls,
    (control) => `\\u${control.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Every line a command prints goes through here (run-cli.ts wraps the process's streams once). */
export function terminalIo(io: CliIo): TerminalIo {
  const { write } = io;
  return {
    ...io,
    out: (text) => io.out(neutraliseControls(text)),
    err: (text) => io.err(neutraliseControls(text)),
    write: write && ((text) => write(neutraliseControls(text))),
    // Carriage return and "erase line": the progress line is redrawn in place.
    progress: (text) => io.err(`\r\x1b[2K${neutraliseControls(text)}`),
  };
}

/** A command's result: as indented JSON with --json, else as the lines a person reads. */
export function printResult(io: CliIo, json: boolean, value: unknown, human: () => string): void {
  io.out(json ? JSON.stringify(value, null, 2) : human());
}
