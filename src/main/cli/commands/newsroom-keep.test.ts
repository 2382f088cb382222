import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewsroomArchive } from '../../core/newsroom/newsroom-archive';
import {
  connectionAs,
  passwordOf,
  samplePublication,
  sampleSentences,
  setUpSampleNewsroom,
} from '../../core/newsroom/newsroom-archive.test-kit';
import { useNewsroomServer } from '../../core/newsroom/newsroom-server.test-kit';
import type { Publication } from '../../core/newsroom/publication';
import { runCliProcess, type CliRun } from '../cli-process.test-kit';
import { keptNewsroomAudioDir } from '../../core/newsroom/newsroom-keep';

/**
 * `newsroom keep` (issue #35, point 6) through a real child process with piped output: ben keeps
 * ana's transcript in his own library as a read-only copy, with its recording.
 */
const server = useNewsroomServer();
const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-keep-'));
const recording = new Uint8Array(randomBytes(2048));

function asBen(args: string[]): Promise<CliRun> {
  return runCliProcess(args, {
    VERBATIM_DATA_DIR: dataDir,
    VERBATIM_NEWSROOM_URL: server().urlFor('ben'),
    VERBATIM_NEWSROOM_PASSWORD: passwordOf('ben'),
  });
}

async function publishAsAna(publication: Publication, audio?: Uint8Array<ArrayBuffer>): Promise<void> {
  const connection = connectionAs(server(), 'ana');
  try {
    const archive = new NewsroomArchive(connection);
    await archive.apply({ kind: 'publish', publication });
    if (audio)
      await archive.putAudioChunk({
        transcriptId: publication.transcriptId,
        revision: publication.revision,
        clip: 'recording',
        chunkIndex: 0,
        bytes: audio,
      });
  } finally {
    await connection.close();
  }
}

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  await publishAsAna(
    samplePublication('harbour', 1, {
      title: 'The harbour master',
      audio: {
        byteLength: recording.byteLength,
        sha256: createHash('sha256').update(recording).digest('hex'),
        mimeType: 'audio/wav',
      },
    }),
    recording,
  );
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('newsroom keep', () => {
  it('keeps a copy with its recording, says so, and keeping it again changes nothing', async () => {
    const run = await asBen(['newsroom', 'keep', 'ana/harbour']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const id = /as (newsroom-[0-9a-f]{32}) /.exec(run.stdout)?.[1];
    expect(run.stdout).toBe(
      `Kept ana/harbour, "The harbour master", in your library as ${id} (revision 1, with its recording): a read-only copy to play, highlight, quote and add to your stories.\n`,
    );
    const again = await asBen(['newsroom', 'keep', 'ana/harbour', '--json']);
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(again.stdout)).toEqual({
      id,
      created: false,
      updated: false,
      revision: 1,
      hasAudio: true,
    });

    const shown = await asBen(['show', id!, '--json']);
    expect(shown.code).toBe(0);
    const job = JSON.parse(shown.stdout) as { audioPath: string; fromNewsroom: unknown };
    expect(job.fromNewsroom).toMatchObject({
      reporter: 'ana',
      transcriptId: 'harbour',
      desk: 'City',
      revision: 1,
    });
    expect(Buffer.compare(readFileSync(job.audioPath), recording)).toBe(0);

    // The copy is read only wherever it is changed from, the command line too.
    const edit = await asBen(['edit', id!, '--replace', 'harbour=airport']);
    expect(edit.code).not.toBe(0);
    expect(edit.stderr).toContain(
      "A colleague's transcript from the newsroom: read only: correcting it stays with the reporter who recorded it.",
    );
  });

  it('brings the copy to a newer revision', async () => {
    await publishAsAna(samplePublication('harbour', 2, { title: 'The harbour master, corrected' }));
    const run = await asBen(['newsroom', 'keep', 'ana/harbour']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(
      /^Updated your copy of ana\/harbour, "The harbour master, corrected" \(newsroom-[0-9a-f]{32}\), to revision 2, without a recording \(it was published without one\); your highlights kept their places\.\n$/,
    );
  });

  it('`delete` of a copy takes its downloaded recording with it, as the app does', async () => {
    await publishAsAna(
      samplePublication('pier', 1, {
        title: 'The pier at night',
        audio: {
          byteLength: recording.byteLength,
          sha256: createHash('sha256').update(recording).digest('hex'),
          mimeType: 'audio/wav',
        },
      }),
      recording,
    );
    const kept = await asBen(['newsroom', 'keep', 'ana/pier', '--json']);
    expect(kept).toMatchObject({ code: 0, stderr: '' });
    const { id } = JSON.parse(kept.stdout) as { id: string };
    const shown = await asBen(['show', id, '--json']);
    const { audioPath } = JSON.parse(shown.stdout) as { audioPath: string };
    expect(audioPath.startsWith(keptNewsroomAudioDir(dataDir))).toBe(true);
    expect(existsSync(audioPath)).toBe(true);

    const deleted = await asBen(['delete', id]);
    expect(deleted).toMatchObject({ code: 0, stderr: '', stdout: `Deleted "The pier at night".\n` });
    expect(existsSync(audioPath)).toBe(false);
    expect(readdirSync(keptNewsroomAudioDir(dataDir)).filter((name) => name.startsWith(id))).toEqual([]);
  });

  it('one ben may not see is not found, in words, and a malformed reference is a usage error', async () => {
    const hidden = await asBen(['newsroom', 'keep', 'dev/minister']);
    expect(hidden).toMatchObject({ code: 2, stdout: '' });
    expect(hidden.stderr).toBe(
      'verbatim: There is no transcript dev/minister in the newsroom that you can see: check the reporter and the id (as newsroom search shows them).\n',
    );
    const malformed = await asBen(['newsroom', 'keep', 'harbour']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain(
      'newsroom keep needs one transcript: newsroom keep <reporter>/<transcript-id>',
    );
  });

  it("shows ana's stamps in `story show` and the story's export: who checked each quote against the audio, and when", async () => {
    // Two of ana's paragraphs (not the four speakers' turns); she checked the second one.
    await publishAsAna(
      samplePublication('checked', 1, {
        title: 'The checked interview',
        sentences: sampleSentences(4, 'the harbour master said'),
        paragraphs: [
          { startMs: 0, endMs: 5500 },
          { startMs: 6000, endMs: 11_500 },
        ],
        checkedParagraphs: [{ paragraph: 1, checkedAt: Date.UTC(2025, 3, 15, 12) }],
      }),
    );
    const kept = await asBen(['newsroom', 'keep', 'ana/checked', '--json']);
    expect(kept).toMatchObject({ code: 0, stderr: '' });
    const { id } = JSON.parse(kept.stdout) as { id: string };
    for (const [from, to] of [
      ['6', '8'],
      ['0', '2'],
    ] as const)
      expect((await asBen(['highlight', id, '--from', from, '--to', to])).code).toBe(0);
    expect((await asBen(['story', 'create', 'Harbour checks'])).code).toBe(0);
    expect((await asBen(['story', 'add', 'Harbour checks', '1'])).code).toBe(0);
    expect((await asBen(['story', 'add', 'Harbour checks', '2'])).code).toBe(0);

    const shown = await asBen(['story', 'show', 'Harbour checks']);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toBe(
      [
        'Story "Harbour checks" (1), 2 quotes:',
        '  1. [00:00:06] Harbour master: “the harbour master said 2”  — "The checked interview"  (checked against the audio by ana on Apr 15, 2025)',
        '  2. [00:00:00] Harbour master: “the harbour master said 0”  — "The checked interview"  (not checked against the audio)',
        '',
      ].join('\n'),
    );
    const out = join(dataDir, 'harbour-checks');
    const exported = await asBen(['story', 'export', 'Harbour checks', '--format', 'md', '--out', out]);
    expect(exported).toMatchObject({ code: 0, stderr: '' });
    const markdown = readFileSync(`${out}.md`, 'utf8');
    expect(markdown).toContain(
      '> — Harbour master, “The checked interview”, Apr 14, 2025, 00:00:06, recorded by ana, City desk, checked against the audio by ana on Apr 15, 2025\n',
    );
    expect(markdown).toContain(
      '> — Harbour master, “The checked interview”, Apr 14, 2025, 00:00:00, recorded by ana, City desk, not checked against the audio\n',
    );
  });
});
