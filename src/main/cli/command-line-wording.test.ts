import { describe, expect, it } from 'vitest';
import { inCommandLineTerms } from './command-line-wording';

describe('messages on the command line', () => {
  it.each([
    [
      'The transcription service did not accept your API key. Check the key in Settings. It said: "no"',
      'The transcription service did not accept your API key. Check VERBATIM_API_KEY. It said: "no"',
    ],
    [
      'No catalog key is set. Enter your catalog key in Settings, under Model catalog, to list the models.',
      'No catalog key is set. Set VERBATIM_CATALOG_KEY to list the models.',
    ],
    [
      'The model catalog did not accept your key. Check the catalog key in Settings, under Model catalog.',
      'The model catalog did not accept your key. Check VERBATIM_CATALOG_KEY.',
    ],
    [
      "Nothing answers at the model catalog's address (127.0.0.1:1: connection refused). Check the address in Settings.",
      "Nothing answers at the model catalog's address (127.0.0.1:1: connection refused). Check VERBATIM_CATALOG_URL.",
    ],
    [
      "The transcription service's address (nowhere.invalid) cannot be found. Check the address in Settings and your internet connection.",
      "The transcription service's address (nowhere.invalid) cannot be found. Check VERBATIM_TRANSCRIPTION_URL and your internet connection.",
    ],
    [
      'None of the models could answer. Try again later, or choose another model or fallback models in Settings.',
      'None of the models could answer. Try again later, or choose another model with --model.',
    ],
    [
      'ferry.txt already exists in /home/reporter. Choose another name, or say to replace it.',
      'ferry.txt already exists in /home/reporter. Choose another name, or add --force to replace it.',
    ],
    [
      '/home/reporter/clips already has clips named 1 - Alvarez.wav, 2 - Lopez.wav. Choose another folder, or say to replace them.',
      '/home/reporter/clips already has clips named 1 - Alvarez.wav, 2 - Lopez.wav. Choose another folder, or add --force to replace them.',
    ],
  ])('%s', (app, cli) => {
    expect(inCommandLineTerms(app)).toBe(cli);
    expect(inCommandLineTerms(app)).not.toContain('Settings');
  });
});
