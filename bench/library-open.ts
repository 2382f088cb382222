import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../src/main/core/library/database';
import { findDamage } from '../src/main/core/library/library-damage';
import { pickWord, vocabulary } from './fixtures';
import { percentile, round, seededRandom, timeMs, type Measurement } from './bench-kit';

/**
 * The check a library gets at every open (issue #32, library-damage.ts): the first page of
 * every table and index read, so a page written over is found at the door. Over a library of
 * 1,000 one-hour transcripts (600 sentences each), opening as Verbatim does, check included,
 * against opening the same file with the same settings and no check, the two taking turns.
 * Beside it, in the notes: SQLite's full quick_check of the same file, the O(size) check run
 * only once a command has met damage, to show why it is not run at every open.
 */
const hours = 1000;
const sentencesPerHour = 600;
const rounds = 30;
const day = 24 * 3600 * 1000;

function storeLibrary(db: Db): void {
  const random = seededRandom(7);
  const words = vocabulary(20_000, random);
  const transcript = db.prepare(
    "INSERT INTO transcripts (id, title, source_kind, source, status, language_code, created_at, updated_at) VALUES (?, ?, 'file', ?, 'completed', 'en_us', ?, ?)",
  );
  const sentence = db.prepare(
    'INSERT INTO sentences (transcript_id, position, start_ms, end_ms, speaker, confidence, text) VALUES (?, ?, ?, ?, ?, 0.9, ?)',
  );
  for (let t = 0; t < hours; t++) {
    db.transaction(() => {
      transcript.run(`t${t}`, `Interview ${t}`, `/rec/${t}.wav`, t * day, t * day);
      for (let s = 0; s < sentencesPerHour; s++) {
        const text = Array.from({ length: 8 + Math.floor(random() * 16) }, () =>
          pickWord(words, random),
        ).join(' ');
        sentence.run(`t${t}`, s, s * 6000, s * 6000 + 5500, s % 3 === 0 ? 'B' : 'A', text);
      }
    })();
  }
}

/** What opening did before the check: the same file, settings and schema read. */
function openWithoutCheck(path: string): Db {
  const db = new Database(path);
  db.pragma('busy_timeout = 5000');
  db.pragma('user_version', { simple: true });
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  return db;
}

export function run(): Promise<Measurement[]> {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-open-'));
  const path = join(dir, 'library.sqlite');
  try {
    const built = openDatabase(path);
    storeLibrary(built);
    built.pragma('wal_checkpoint(TRUNCATE)');
    const btrees = (
      built.prepare('SELECT count(*) AS n FROM sqlite_schema WHERE rootpage > 0').get() as { n: number }
    ).n;
    const megabytes = round(((built.pragma('page_count', { simple: true }) as number) * 4096) / 1e6);
    built.close();
    const ours: number[] = [];
    const baseline: number[] = [];
    for (let turn = 0; turn < rounds; turn++) {
      const sides = [
        () => ours.push(timeMs(() => openDatabase(path).close()).ms),
        () => baseline.push(timeMs(() => openWithoutCheck(path).close()).ms),
      ];
      if (turn % 2 === 1) sides.reverse();
      for (const side of sides) side();
    }
    const db = openWithoutCheck(path);
    const cheap = timeMs(() => findDamage(db, { thorough: false })).ms;
    const quickCheck = timeMs(() => findDamage(db, { thorough: true })).ms;
    db.close();
    return Promise.resolve([
      {
        name: `library open: p95 time to open a 1,000-hour library with the damage check (${btrees} b-trees, ${megabytes} MB)`,
        statistic: 'p95',
        unit: 'ms',
        ours: round(percentile(ours, 95)),
        baseline: round(percentile(baseline, 95)),
        baselineLabel: 'the same open without the check',
        targets: [
          { of: 'ours', statistic: 'p95', comparison: '<', threshold: 50, unit: 'ms' },
          { of: 'difference', comparison: '<', threshold: 25, unit: 'ms' },
        ],
        notes: {
          'check alone (ms)': round(cheap),
          'full quick_check instead (ms)': round(quickCheck),
          'library size (MB)': megabytes,
        },
      },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
