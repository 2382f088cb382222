import { describe, expect, it } from 'vitest';
import { VerbatimError } from '../../../shared/errors';
import {
  isExpected,
  messageOf,
  problem,
  problemOf,
  technicalDetails,
  unexpectedMessage,
} from './error-message';

const when = new Date('2026-11-20T09:30:00.000Z');

describe('messageOf', () => {
  it("says a declared failure in the contract's own words, whatever its code", () => {
    expect(messageOf(new VerbatimError('not_found', 'This transcript is no longer in your library.'))).toBe(
      'This transcript is no longer in your library.',
    );
    expect(
      messageOf(new VerbatimError('internal', 'No microphone is available to the assistant here.')),
    ).toBe('No microphone is available to the assistant here.');
  });

  it('says anything else in plain words, never its technical message', () => {
    const message = messageOf(new TypeError("Cannot read properties of null (reading 'hits')"));
    expect(message).toBe(unexpectedMessage);
    expect(message).not.toMatch(/TypeError|hits|main process/);
    expect(messageOf('a string was thrown')).toBe(unexpectedMessage);
    expect(messageOf(undefined)).toBe(unexpectedMessage);
  });
});

describe('problemOf', () => {
  it('gives a declared failure no details to copy', () => {
    expect(problemOf(new VerbatimError('conflict', 'The file exists.'), 'export.save', when)).toEqual({
      message: 'The file exists.',
    });
    expect(isExpected(new VerbatimError('network', 'Offline.'))).toBe(true);
  });

  it('gives an unexpected failure the plain sentence and what a developer needs', () => {
    const error = new TypeError("Cannot read properties of null (reading 'hits')");
    const result = problemOf(error, 'library.search', when);
    expect(isExpected(error)).toBe(false);
    expect(result.message).toBe(unexpectedMessage);
    expect(result.details).toContain('When: 2026-11-20T09:30:00.000Z');
    expect(result.details).toContain('Where: library.search');
    expect(result.details).toContain("Error: TypeError: Cannot read properties of null (reading 'hits')");
    // The stack's frames follow, without repeating the first line.
    expect(result.details).toMatch(/\n\s+at /);
    expect(result.details?.match(/Cannot read properties/g)).toHaveLength(1);
  });

  it('follows causes and describes values that are not errors', () => {
    const error = new Error('The bridge broke', { cause: new RangeError('Invalid array length') });
    const details = technicalDetails(error, 'transcripts.get', when);
    expect(details).toContain('Error: Error: The bridge broke');
    expect(details).toContain('Caused by: RangeError: Invalid array length');
    expect(technicalDetails({ code: 42 }, 'x', when)).toContain('Error: {"code":42}');
    expect(technicalDetails('plain', 'x', when)).toContain('Error: plain');
  });

  it('keeps the details within what the log takes', () => {
    const error = new Error('x'.repeat(50_000));
    expect(technicalDetails(error, 'x', when).length).toBeLessThanOrEqual(8000);
  });
});

describe('problem', () => {
  it('wraps a sentence that needs no details', () => {
    expect(problem('Select some words first.')).toEqual({ message: 'Select some words first.' });
  });
});
