import type Database from 'better-sqlite3';
import { openDatabase } from '../src/main/core/library/database';
import { Library } from '../src/main/core/library/library';
import { generatedTranscript } from './fixtures';
import { percentile, timeMsAsync, timeMs, type Measurement } from './bench-kit';

/**
 * Ingest of a 3-hour transcript (about 30,000 words) through Library.saveCompleted, against a
 * raw better-sqlite3 insert of the same sentence and paragraph rows into the same schema
 * (triggers and FTS included) in one transaction. Target: the median under 150 ms.
 */
export async function run(): Promise<Measurement[]> {
  const completed = generatedTranscript(30_000, 7);
  const rounds = 7;
  const ours: number[] = [];
  const baseline: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const db = openDatabase(':memory:');
    const library = new Library(db);
    await library.createJob({
      id: 't',
      title: 'Bench',
      sourceKind: 'file',
      source: '/x.wav',
      audioPath: null,
      region: 'us',
      options: {},
      status: 'fetching',
    });
    ours.push((await timeMsAsync(() => library.saveCompleted('t', completed))).ms);
    db.close();

    const raw: Database.Database = openDatabase(':memory:');
    raw
      .prepare(
        "INSERT INTO transcripts (id, title, source_kind, source, status, created_at, updated_at) VALUES ('t', 'Bench', 'file', '/x', 'fetching', 0, 0)",
      )
      .run();
    const sentence = raw.prepare(
      'INSERT INTO sentences (transcript_id, position, start_ms, end_ms, speaker, confidence, text, words_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const paragraph = raw.prepare(
      'INSERT INTO paragraphs (transcript_id, position, start_ms, end_ms, speaker, confidence, text, words_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    baseline.push(
      timeMs(() =>
        raw.transaction(() => {
          completed.sentences.forEach((s, i) =>
            sentence.run(
              't',
              i,
              s.start,
              s.end,
              s.speaker ?? null,
              s.confidence ?? null,
              s.text,
              JSON.stringify(s.words),
            ),
          );
          completed.paragraphs.forEach((p, i) =>
            paragraph.run(
              't',
              i,
              p.start,
              p.end,
              null,
              p.confidence ?? null,
              p.text,
              JSON.stringify(p.words),
            ),
          );
        })(),
      ).ms,
    );
    raw.close();
  }
  // The first round warms the JIT and SQLite's caches; report the median of the rest.
  const oursMs = percentile(ours.slice(1), 50);
  const baselineMs = percentile(baseline.slice(1), 50);
  return [
    {
      name: `ingest: median time to save a 3-hour transcript (${rounds - 1} rounds)`,
      statistic: 'median',
      unit: 'ms',
      ours: oursMs,
      baseline: baselineMs,
      baselineLabel: 'raw better-sqlite3 insert of the same rows, median',
      targets: [{ of: 'ours', statistic: 'median', comparison: '<', threshold: 150, unit: 'ms' }],
      notes: {
        sentences: completed.sentences.length,
        paragraphs: completed.paragraphs.length,
        words: 30_000,
      },
    },
  ];
}
