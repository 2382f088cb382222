import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { formatRecord, type LogRecord, type LogSink } from './logger';

/** The file operations the sink needs, injectable so tests can make a write fail. */
export interface LogFileSystem {
  append(path: string, text: string): void;
  /** The file's size in bytes; undefined when it does not exist. */
  size(path: string): number | undefined;
  rename(from: string, to: string): void;
  remove(path: string): void;
  makeFolder(path: string): void;
}

export const nodeLogFileSystem: LogFileSystem = {
  append: (path, text) => appendFileSync(path, text, 'utf8'),
  size: (path) => {
    try {
      return statSync(path).size;
    } catch {
      return undefined;
    }
  },
  rename: (from, to) => renameSync(from, to),
  remove: (path) => rmSync(path, { force: true }),
  makeFolder: (path) => void mkdirSync(path, { recursive: true }),
};

export interface RotatingFileOptions {
  path: string;
  /** The size at which the file is rotated (1 MB). */
  maxBytes?: number;
  /** How many old files are kept beside it: verbatim.log.1 (newest) … .3 (3). */
  keep?: number;
  fs?: LogFileSystem;
  /**
   * Told when writing starts failing (once, until a write succeeds again): the process carries
   * on either way. Standard error by default.
   */
  onError?: (error: unknown) => void;
}

/** Where the app and the web host keep their log in a data folder. */
export function logFilePath(dataDir: string): string {
  return join(dataDir, 'logs', 'verbatim.log');
}

/**
 * Appends each record to a file, synchronously (a line written before a crash is on disk),
 * and rotates it at `maxBytes`: verbatim.log → verbatim.log.1 → … → .keep, the oldest dropped.
 * A write that fails (a full disk, a folder taken away) is reported once and never thrown.
 */
export class RotatingFileSink implements LogSink {
  private readonly fs: LogFileSystem;
  private readonly maxBytes: number;
  private readonly keep: number;
  private size: number | undefined;
  private failing = false;

  constructor(private readonly options: RotatingFileOptions) {
    this.fs = options.fs ?? nodeLogFileSystem;
    this.maxBytes = options.maxBytes ?? 1_000_000;
    this.keep = options.keep ?? 3;
  }

  get path(): string {
    return this.options.path;
  }

  write(record: LogRecord): void {
    const text = formatRecord(record);
    const bytes = Buffer.byteLength(text);
    try {
      if (this.size === undefined) {
        this.fs.makeFolder(dirname(this.options.path));
        this.size = this.fs.size(this.options.path) ?? 0;
      }
      if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
      this.fs.append(this.options.path, text);
      this.size += bytes;
      this.failing = false;
    } catch (error) {
      // Measured again next time: the file may have been moved or removed meanwhile.
      this.size = undefined;
      if (!this.failing) this.report(error);
      this.failing = true;
    }
  }

  private rotate(): void {
    const numbered = (n: number): string => `${this.options.path}.${n}`;
    this.fs.remove(numbered(this.keep));
    for (let n = this.keep - 1; n >= 1; n--) {
      if (this.fs.size(numbered(n)) !== undefined) this.fs.rename(numbered(n), numbered(n + 1));
    }
    if (this.keep >= 1) this.fs.rename(this.options.path, numbered(1));
    else this.fs.remove(this.options.path);
    this.size = 0;
  }

  private report(error: unknown): void {
    try {
      if (this.options.onError) this.options.onError(error);
      else
        process.stderr.write(
          `verbatim: cannot write the log ${this.options.path}: ${error instanceof Error ? error.message : String(error)}\n`,
        );
    } catch {
      // Nowhere left to say it.
    }
  }
}
