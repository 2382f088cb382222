import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './database';
import { Library } from './library';

/**
 * Another process (the web host, a CLI batch) writes to the same library while a transcript is
 * saved. A transaction that reads before it writes would find its snapshot stale once the other
 * writer commits, and SQLite fails it at once ("database is locked") without waiting: the save
 * must take the write lock up front, so the busy timeout applies and the save simply waits.
 */
function holdWriteLock(path: string, holdMs: number) {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(path)});
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN IMMEDIATE');
    db.prepare("INSERT OR IGNORE INTO transcript_tags (transcript_id, tag) VALUES ('other', 'held')").run();
    process.stdout.write('locked\\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${holdMs});
    db.exec('COMMIT');
    db.close();
  `;
  const child = spawn(process.execPath, ['-e', script], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const locked = new Promise<void>((resolveLocked) => child.stdout.once('data', () => resolveLocked()));
  const exited = new Promise<number | null>((resolveExit) => child.on('exit', resolveExit));
  return { locked, exited };
}

describe('saving while another process writes to the library', () => {
  it('waits for the other writer instead of failing with "database is locked"', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-write-lock-')), 'library.sqlite');
    const library = new Library(openDatabase(path), () => Date.now());
    for (const id of ['job', 'other'])
      await library.createJob({
        id,
        title: id,
        sourceKind: 'file',
        source: `/rec/${id}.wav`,
        audioPath: `/rec/${id}.wav`,
        region: 'us',
        options: {},
        status: 'fetching',
      });
    const other = holdWriteLock(path, 400);
    await other.locked;
    const saved = await library.saveCompleted('job', {
      transcript: {
        id: 'remote',
        text: 'The ferry contract was signed.',
        language_code: 'en_us',
        audio_duration: 3,
      },
      sentences: [
        {
          text: 'The ferry contract was signed.',
          start: 0,
          end: 2000,
          confidence: 0.9,
          words: [{ text: 'The', start: 0, end: 100, confidence: 0.9 }],
        },
      ],
      paragraphs: [{ text: 'The ferry contract was signed.', start: 0, end: 2000, confidence: 0.9 }],
    });
    expect(saved.status).toBe('completed');
    expect(await other.exited).toBe(0);
    expect((await library.get('other'))?.tags).toEqual(['held']);
  });
});
