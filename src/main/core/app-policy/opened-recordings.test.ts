import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectOpened, recordingArguments } from './opened-recordings';
import { audioExtensions, videoExtensions } from '../../../shared/recording-file-extensions';

const fixtures = resolve(import.meta.dirname, '../../../../test/fixtures');

describe('recordingArguments', () => {
  it('finds the recordings a second instance or the first launch was given, relative to its folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'verbatim-argv-'));
    writeFileSync(join(dir, 'Mayor Interview.MP3'), 'x');
    writeFileSync(join(dir, 'call.m4a'), 'x');
    const argv = [
      '/opt/Verbatim/verbatim',
      '--allow-file-access-from-files',
      '.',
      'out/main/index.js',
      'Mayor Interview.MP3',
      join(dir, 'call.m4a'),
      join(dir, 'missing.wav'),
      join(dir, 'notes.txt'),
    ];
    expect(recordingArguments(argv, dir)).toEqual([join(dir, 'Mayor Interview.MP3'), join(dir, 'call.m4a')]);
    expect(recordingArguments(['/opt/Verbatim/verbatim'], dir)).toEqual([]);
  });
});

describe('inspectOpened', () => {
  it('checks each recording as the form does: a real one is offered, anything else says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verbatim-opened-'));
    const fake = join(dir, 'not-audio.mp3');
    writeFileSync(fake, 'this is a text file with the wrong name');
    const statement = join(fixtures, 'press-statement.wav');
    const opened = await inspectOpened([statement, statement, fake]);
    expect(opened.recordings).toEqual([
      { path: statement, name: 'press-statement.wav', size: readFileSync(statement).length },
    ]);
    expect(opened.refused).toHaveLength(1);
    expect(opened.refused[0]!.name).toBe('not-audio.mp3');
    expect(opened.refused[0]!.message.length).toBeGreaterThan(10);
  });
});

describe('the installers’ file associations', () => {
  it('register exactly the extensions the app opens', () => {
    const yml = readFileSync(resolve(import.meta.dirname, '../../../../electron-builder.yml'), 'utf8');
    const lists = [...yml.matchAll(/^\s+- ext: \[([^\]]+)\]/gm)].map((match) =>
      match[1]!.split(',').map((extension) => extension.trim()),
    );
    expect(lists).toEqual([audioExtensions, videoExtensions]);
  });
});
