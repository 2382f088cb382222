import { describe, expect, it, vi } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from './logger';
import { RotatingFileSink, logFilePath, nodeLogFileSystem, type LogFileSystem } from './file-sink';

const folder = (): string => mkdtempSync(join(tmpdir(), 'verbatim-log-'));

describe('the log file', () => {
  it('lives in the data folder’s logs folder, made on the first write', () => {
    const dataDir = folder();
    const path = logFilePath(dataDir);
    expect(path).toBe(join(dataDir, 'logs', 'verbatim.log'));
    const log = createLogger({ sinks: [new RotatingFileSink({ path })], now: () => 0 });
    log.info('started', { jobs: 2 });
    expect(readFileSync(path, 'utf8')).toBe('1970-01-01T00:00:00.000Z INFO  started\n    {"jobs":2}\n');
  });

  it('rotates at the size limit and keeps three old files, the oldest dropped', () => {
    const path = logFilePath(folder());
    const sink = new RotatingFileSink({ path, maxBytes: 1000, keep: 3 });
    const log = createLogger({ sinks: [sink], now: () => 0 });
    // Each line is 100 bytes: 10 lines to a file.
    const line = (n: number): string => `line ${String(n).padStart(4, '0')} ${'x'.repeat(58)}`;
    for (let n = 0; n < 60; n++) log.info(line(n));
    const files = readdirSync(join(path, '..')).sort();
    expect(files).toEqual(['verbatim.log', 'verbatim.log.1', 'verbatim.log.2', 'verbatim.log.3']);
    for (const file of files) expect(statSync(join(path, '..', file)).size).toBeLessThanOrEqual(1000);
    // The newest lines are in the file, the ones before in .1, and the oldest kept in .3.
    expect(readFileSync(path, 'utf8')).toContain(line(59));
    expect(readFileSync(path, 'utf8')).not.toContain(line(49));
    expect(readFileSync(`${path}.1`, 'utf8')).toContain(line(40));
    const oldest = readFileSync(`${path}.3`, 'utf8');
    expect(oldest).toContain(line(20));
    expect(oldest).not.toContain(line(19));
  });

  it('carries on from an existing file’s size after a restart', () => {
    const path = logFilePath(folder());
    createLogger({ sinks: [new RotatingFileSink({ path, maxBytes: 300 })] }).info('x'.repeat(200));
    createLogger({ sinks: [new RotatingFileSink({ path, maxBytes: 300 })] }).info('y'.repeat(200));
    expect(readFileSync(`${path}.1`, 'utf8')).toContain('x'.repeat(200));
    expect(readFileSync(path, 'utf8')).not.toContain('x');
  });

  it('never loses the process on a write error, says so once, and writes again when it can', () => {
    let full = true;
    const failing: LogFileSystem = {
      ...nodeLogFileSystem,
      append: (file, text) => {
        if (full) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        nodeLogFileSystem.append(file, text);
      },
    };
    const path = logFilePath(folder());
    const onError = vi.fn();
    const log = createLogger({ sinks: [new RotatingFileSink({ path, fs: failing, onError })] });
    expect(() => {
      log.error('first');
      log.error('second');
    }).not.toThrow();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(String(onError.mock.calls[0]![0])).toContain('ENOSPC');
    full = false;
    log.error('third');
    expect(readFileSync(path, 'utf8')).toContain('third');
  });

  it('survives a data folder it cannot write in (the log path is a file)', () => {
    const dataDir = folder();
    writeFileSync(join(dataDir, 'logs'), 'not a folder');
    const onError = vi.fn();
    const log = createLogger({ sinks: [new RotatingFileSink({ path: logFilePath(dataDir), onError })] });
    expect(() => log.error('nowhere to go')).not.toThrow();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(existsSync(logFilePath(dataDir))).toBe(false);
  });
});
