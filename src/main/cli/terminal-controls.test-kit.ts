/**
 * What a terminal acts on instead of showing, written out apart from cli-io.ts so a test checks
 * its output against the list, not against itself: C0 but tab and newline, DEL, C1, and the bidi
 * overrides and isolates.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
export const actedOnByTerminal = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
