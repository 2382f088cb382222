import {
  chmodSync,
  statSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VerbatimError } from '../../../shared/errors';
import type { AtomicWriteOps } from '../../base/fs';
import { writeExportFile } from './export-file';

const root = mkdtempSync(join(tmpdir(), 'verbatim-export-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
const folder = (): string => {
  const dir = join(root, `case-${n++}`);
  mkdirSync(dir);
  return dir;
};
const bytes = new TextEncoder().encode('Maria Lopez: The budget is final.\n');

function failure(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

/** The real file system, but one step fails the way a full disk or a locked folder fails it. */
function failing(step: 'open' | 'write' | 'sync' | 'rename', code: string): AtomicWriteOps {
  return {
    mkdir,
    rm,
    rename: (from, to) => (step === 'rename' ? Promise.reject(failure(code)) : rename(from, to)),
    open: async (path, flags) => {
      if (step === 'open') throw failure(code);
      const handle = await open(path, flags);
      return {
        writeFile: async (data) => {
          // A full disk fails part-way: some bytes are already in the temporary file.
          await handle.writeFile(typeof data === 'string' ? data.slice(0, 5) : data.subarray(0, 5));
          if (step === 'write') throw failure(code);
          if (typeof data === 'string') await handle.writeFile(data.slice(5));
          else await handle.writeFile(data.subarray(5));
        },
        sync: () => (step === 'sync' ? Promise.reject(failure(code)) : handle.sync()),
        close: () => handle.close(),
      };
    },
  };
}

async function caught(work: Promise<unknown>): Promise<VerbatimError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof VerbatimError) return error;
    throw error;
  }
  throw new Error('expected the write to fail');
}

describe('writeExportFile', () => {
  it('writes the file whole, replacing an older export, and leaves nothing else', async () => {
    const dir = folder();
    const path = join(dir, 'interview.txt');
    writeFileSync(path, 'an older export');
    await writeExportFile(path, bytes, { replace: true });
    expect(readFileSync(path, 'utf8')).toBe('Maria Lopez: The budget is final.\n');
    expect(readdirSync(dir)).toEqual(['interview.txt']);
  });

  it('says a folder that was there is gone, and a typed one is not there, without making either', async () => {
    const dir = folder();
    rmSync(dir, { recursive: true });
    const gone = await caught(
      writeExportFile(join(dir, 'interview.docx'), bytes, { replace: false, folderWasThere: true }),
    );
    expect(gone.code).toBe('storage');
    expect(gone.message).toBe(
      `The folder ${dir} is no longer there (moved, renamed or on a drive that was removed). Choose another folder.`,
    );
    const typed = await caught(writeExportFile(join(dir, 'interview.docx'), bytes, { replace: false }));
    expect(typed.code).toBe('storage');
    expect(typed.message).toBe(`There is no folder ${dir}. Check the path, or choose a folder that exists.`);
    expect(() => readdirSync(dir)).toThrow();
  });

  it('says when a part of the path is a file, not a folder', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'notes'), 'x');
    const error = await caught(
      writeExportFile(join(dir, 'notes', 'interview.pdf'), bytes, { replace: false }),
    );
    expect(error.message).toBe(
      `There is no folder ${join(dir, 'notes')}. Check the path, or choose a folder that exists.`,
    );
  });

  const cases: [step: 'open' | 'write' | 'sync' | 'rename', code: string, says: string][] = [
    ['open', 'EACCES', 'may not write to'],
    ['open', 'EPERM', 'may not write to'],
    ['open', 'EROFS', 'read-only'],
    ['write', 'ENOSPC', 'not enough space'],
    ['sync', 'EDQUOT', 'not enough space'],
    ['rename', 'EACCES', 'may not write to'],
    ['rename', 'ENOENT', 'cannot be created in'],
    ['write', 'EIO', 'could not save interview.csv: EIO: simulated'],
  ];
  for (const [step, code, says] of cases) {
    it(`explains ${code} at ${step} and leaves no temporary file`, async () => {
      const dir = folder();
      const path = join(dir, 'interview.csv');
      writeFileSync(path, 'the previous export');
      const error = await caught(writeExportFile(path, bytes, { replace: true, ops: failing(step, code) }));
      expect(error.code).toBe('storage');
      expect(error.message).toContain(says);
      expect(error.details).toEqual({ path, code });
      // The earlier file is untouched and no half-written temporary file is left beside it.
      expect(readdirSync(dir)).toEqual(['interview.csv']);
      expect(readFileSync(path, 'utf8')).toBe('the previous export');
    });
  }

  it('refuses to replace an existing file unless told to, and leaves it as it was', async () => {
    const dir = folder();
    const path = join(dir, 'interview.txt');
    writeFileSync(path, 'the editor already has this one');
    const error = await caught(writeExportFile(path, bytes, { replace: false }));
    expect(error.code).toBe('conflict');
    expect(error.message).toBe(
      `interview.txt already exists in ${dir}. Choose another name, or say to replace it.`,
    );
    expect(readFileSync(path, 'utf8')).toBe('the editor already has this one');
    expect(readdirSync(dir)).toEqual(['interview.txt']);
  });

  it('keeps a replaced file private when it was (its mode survives)', async () => {
    const dir = folder();
    const path = join(dir, 'interview.txt');
    writeFileSync(path, 'private', { mode: 0o600 });
    chmodSync(path, 0o600);
    await writeExportFile(path, bytes, { replace: true });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe('Maria Lopez: The budget is final.\n');
  });

  it('saves a legal 254-character file name (the temporary name does not make it too long)', async () => {
    const dir = folder();
    const name = `${'a'.repeat(250)}.txt`;
    await writeExportFile(join(dir, name), bytes, { replace: false });
    expect(readdirSync(dir)).toEqual([name]);
  });

  it('never writes over a device, and says a system folder is not for saving', async () => {
    const device = await caught(writeExportFile('/dev/null', bytes, { replace: true }));
    expect(device.message).toBe(
      '/dev/null is not an ordinary file (a device or other special file). Choose a file name in a folder such as Documents.',
    );
    const system = await caught(writeExportFile('/proc/interview.txt', bytes, { replace: false }));
    expect(system.message).toBe(
      'Files cannot be created in /proc (a system folder). Choose another folder, such as Documents.',
    );
  });
});
