import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../library/database';
import { Library } from '../library/library';
import {
  completedTranscriptFromLines,
  misheardTimings,
  storeFinished,
} from '../library/completed-transcript.test-kit';
import { startTypeScriptProcess } from '../../cli/cli-process.test-kit';
import { publishTranscript } from './build-publication';

/**
 * "A SIGKILL mid-drain loses nothing": a real process drains the outbox into an archive that
 * appends what it applies to a file, and is killed at a random moment, several times; a last
 * run drains the rest. Every transcript's revision reached the archive; a duplicate is only the
 * item in flight at a kill, with the same revision; the outbox is empty and every transcript
 * says published.
 */
const drainer = resolve(import.meta.dirname, 'outbox-drain-process.test-kit.ts');
const folder = mkdtempSync(join(tmpdir(), 'verbatim-outbox-kill-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the newsroom outbox under SIGKILL', () => {
  it('loses nothing and applies twice only the item in flight at each kill', async () => {
    const libraryPath = join(folder, 'library.db');
    const appliedPath = join(folder, 'applied.jsonl');
    const library = new Library(openDatabase(libraryPath));
    const ids = Array.from({ length: 40 }, (_, i) => `t${i}`);
    for (const id of ids) {
      await storeFinished(
        library,
        id,
        `Interview ${id}`,
        completedTranscriptFromLines([['A', `The harbour ${id} opens.`, 0]], misheardTimings, {
          transcript: { id: `remote-${id}`, language_code: 'en' },
        }),
      );
      await publishTranscript(library, id, { desk: 'City', confidential: false, withAudio: false });
    }

    const kills = 4;
    for (let k = 0; k < kills; k++) {
      const run = startTypeScriptProcess(drainer, [libraryPath, appliedPath, '400'], {});
      await new Promise<void>((started) => run.child.stdout.once('data', () => started()));
      await new Promise((after) => setTimeout(after, 20 + Math.random() * 60));
      run.child.kill('SIGKILL');
      await run.finished;
    }
    const last = await startTypeScriptProcess(drainer, [libraryPath, appliedPath, '400'], {}).finished;
    expect(last.stdout).toContain('drained 0');

    const applied = (existsSync(appliedPath) ? readFileSync(appliedPath, 'utf8') : '')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { transcriptId: string; revision: number });
    const seen = new Map<string, number[]>();
    for (const { transcriptId, revision } of applied)
      seen.set(transcriptId, [...(seen.get(transcriptId) ?? []), revision]);
    expect([...seen.keys()].sort()).toEqual([...ids].sort());
    const duplicated = [...seen.values()].filter((revisions) => revisions.length > 1);
    expect(duplicated.length).toBeLessThanOrEqual(kills);
    for (const revisions of seen.values()) expect(new Set(revisions)).toEqual(new Set([1]));
    expect(await library.newsroomOutboxSize()).toBe(0);
    for (const id of ids)
      expect(await library.newsroomPublication(id)).toMatchObject({
        state: 'published',
        revisionPublished: 1,
      });
  }, 120_000);
});
