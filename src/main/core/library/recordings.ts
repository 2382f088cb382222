import { existsSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { VerbatimError } from '../../../shared/errors';
import type { Recording } from '../../../shared/recording';
import type { Db } from './database';
import { settle } from '../../base/settle';
import type { PcmFormat } from '../media/wav-header';
import { repairWav } from '../recording/crash-safe-wav';
import { realPathOf, sameBytes } from '../recording/same-file';
import { rowMapping, value } from './row-mapping';
import { statement } from './statement-cache';

const recordingRow = rowMapping({
  id: value<number>('id'),
  path: value<string>('path'),
  startedAt: value<number>('started_at'),
  endedAt: value<number | null>('ended_at'),
  sampleRate: value<number>('sample_rate'),
  channels: value<number>('channels'),
  status: value<Recording['status']>('status'),
  durationMs: value<number>('duration_ms'),
  processId: value<number>('process_id'),
  transcriptId: value<string | null>('transcript_id'),
});

/**
 * A recording as the library lists it. A made recording whose file has gone since (deleted,
 * moved, renamed) is `missing` for as long as the file is not back where it was.
 */
function toRecording(row: unknown, fileExists: (path: string) => boolean): Recording {
  const recording = recordingRow.fromRow(row);
  const made = recording.status === 'finished' || recording.status === 'recovered';
  return made && !fileExists(recording.path) ? { ...recording, status: 'missing' } : recording;
}

/**
 * Whether a process is running; EPERM means it runs as someone else, which still counts. A
 * zombie (killed, not yet reaped: its parent died with it) is gone: on Linux /proc says so.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/**
 * The library's recordings (issue #23): registered when they start, finished when they stop,
 * and after a crash repaired by the next start of the app or of the command line.
 */
export class Recordings {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    private readonly alive: (pid: number) => boolean = processAlive,
    private readonly fileExists: (path: string) => boolean = existsSync,
  ) {}

  /** Registers a recording about to be written at `path` by the process `recorder` (this one by default). */
  start(path: string, format: PcmFormat, recorder: number = process.pid): Promise<Recording> {
    return settle(() => {
      const { id } = statement(
        this.db,
        // A path recorded to before whose file is gone (a new file can only start where
        // none is) is a new recording: the old row is replaced.
        `INSERT INTO recordings (path, started_at, sample_rate, channels, status, process_id)
             VALUES (?, ?, ?, ?, 'recording', ?)
             ON CONFLICT (path) DO UPDATE SET started_at = excluded.started_at, ended_at = NULL,
               sample_rate = excluded.sample_rate, channels = excluded.channels, status = 'recording',
               duration_ms = 0, process_id = excluded.process_id, transcript_id = NULL
             RETURNING id`,
      ).get(path, this.now(), format.sampleRate, format.channels, recorder) as { id: number };
      // A recording often ends because it filled the disk the library is on. Once checkpointed,
      // the log's next write starts again at its beginning, in the room this one took: the
      // recording's end can still be written then (best effort: a reader may hold the log).
      this.db.pragma('wal_checkpoint(RESTART)');
      return this.find(id);
    });
  }

  finish(id: number, durationMs: number): Promise<Recording> {
    return settle(() => {
      statement(
        this.db,
        "UPDATE recordings SET status = 'finished', ended_at = ?, duration_ms = ? WHERE id = ?",
      ).run(this.now(), Math.round(durationMs), id);
      return this.find(id);
    });
  }

  /** A recording that could not start (its file refused) is not kept. */
  abandon(id: number): Promise<void> {
    return settle(() => void statement(this.db, 'DELETE FROM recordings WHERE id = ?').run(id));
  }

  list(): Promise<Recording[]> {
    return settle(() =>
      statement(this.db, 'SELECT * FROM recordings ORDER BY started_at DESC, id DESC')
        .all()
        .map((row) => toRecording(row, this.fileExists)),
    );
  }

  /**
   * Every recording left `recording` by a process that is gone (a crash, a power cut, SIGKILL):
   * its file repaired and marked `recovered` with the length it kept, or `missing` when there is
   * no file. Answers the ones it changed. A recording another process is still making is left.
   */
  async recover(): Promise<Recording[]> {
    const unfinished = statement(this.db, "SELECT * FROM recordings WHERE status = 'recording'").all();
    const changed: Recording[] = [];
    for (const row of unfinished.map(recordingRow.fromRow)) {
      if (row.processId === process.pid || this.alive(row.processId)) continue;
      if (!this.fileExists(row.path)) {
        statement(this.db, "UPDATE recordings SET status = 'missing', ended_at = ? WHERE id = ?").run(
          this.now(),
          row.id,
        );
      } else {
        const repaired = await repairWav(row.path);
        statement(
          this.db,
          "UPDATE recordings SET status = 'recovered', ended_at = ?, duration_ms = ? WHERE id = ?",
        ).run(this.now(), repaired.durationMs, row.id);
      }
      changed.push(this.find(row.id));
    }
    return changed;
  }

  /** One recording, or a plain "not there" for an id the library does not know. */
  get(id: number): Promise<Recording> {
    return settle(() => this.find(id));
  }

  /**
   * A transcript just made from the local file at `path`: when that file is one of the library's
   * recordings, the recording is linked to it (its latest transcript), however it was sent (the
   * Record view, the New transcription form, the command line). The file is the recording when
   * it is the same file (its path, or a link to it) or a copy of its bytes: the web host and a
   * reporter's own copy to the desktop both hand over a copy. Answers the recording linked.
   */
  async linkFile(path: string, transcriptId: string): Promise<Recording | undefined> {
    const stored = statement(
      this.db,
      "SELECT * FROM recordings WHERE status IN ('finished', 'recovered') ORDER BY id DESC",
    ).all();
    const made = stored.map(recordingRow.fromRow);
    const real = await realPathOf(path);
    if (made.length === 0 || real === undefined) return undefined;
    let match: Recording | undefined;
    for (const row of made) {
      if (resolve(row.path) === resolve(path) || (await realPathOf(row.path)) === real) {
        match = row;
        break;
      }
    }
    if (!match) {
      const { size } = await stat(real);
      const sameSize: Recording[] = [];
      for (const row of made) {
        const info = await stat(row.path).catch(() => undefined);
        if (info?.isFile() && info.size === size) sameSize.push(row);
      }
      // Two recordings with the same bytes (silence of the same length): the one not yet sent.
      sameSize.sort((a, b) => Number(a.transcriptId !== null) - Number(b.transcriptId !== null));
      for (const row of sameSize) {
        if (await sameBytes(row.path, real)) {
          match = row;
          break;
        }
      }
    }
    return match ? this.link(match.id, transcriptId) : undefined;
  }

  /** Records that `transcriptId` was made from the recording. */
  link(id: number, transcriptId: string): Promise<Recording> {
    return settle(() => {
      statement(this.db, 'UPDATE recordings SET transcript_id = ? WHERE id = ?').run(transcriptId, id);
      return this.find(id);
    });
  }

  private find(id: number): Recording {
    const row = statement(this.db, 'SELECT * FROM recordings WHERE id = ?').get(id);
    if (!row) throw new VerbatimError('not_found', 'That recording is not in the library any more.');
    return toRecording(row, this.fileExists);
  }
}
