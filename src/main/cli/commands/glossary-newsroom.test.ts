import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/newsroom/local-postgres';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { passwordOf, setUpSampleNewsroom } from '../../core/newsroom/newsroom-archive.test-kit';
import { useNewsroomServer } from '../../core/newsroom/newsroom-server.test-kit';
import { runCliProcess } from '../cli-process.test-kit';

/**
 * Newsroom glossaries from the command line (issue #36, points 1, 5 and 6): each user a data
 * folder of their own and the CLI as a real child process logged in as them, against a real
 * PostgreSQL; the transcription service is the emulator, whose request log shows what was sent.
 */
const server = useNewsroomServer();
const speed = 200;
const interview = resolve(import.meta.dirname, '../../../../test/fixtures/interview-ferry-contract.wav');
let emulator: RunningEmulator;
let closedPort: number;

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  emulator = await startEmulator({ port: 0, speed });
  closedPort = await freePort();
});
afterAll(() => emulator.close());

const folders = new Map<string, string>();

/** The CLI as `user` in their own data folder; `offline` points it at a port where nothing answers. */
function as(user: string, options: { offline?: boolean } = {}) {
  let dataDir = folders.get(user);
  if (!dataDir) folders.set(user, (dataDir = mkdtempSync(join(tmpdir(), `verbatim-glossary-${user}-`))));
  const url = options.offline ? `postgres://${user}@127.0.0.1:${closedPort}/verbatim` : server().urlFor(user);
  return (args: string[]) =>
    runCliProcess(args, {
      VERBATIM_DATA_DIR: dataDir,
      VERBATIM_NEWSROOM_URL: url,
      VERBATIM_NEWSROOM_PASSWORD: passwordOf(user),
      VERBATIM_API_KEY: emulator.options.key,
      VERBATIM_TRANSCRIPTION_URL: emulator.url,
      VERBATIM_TIME_SCALE: String(speed),
    });
}

async function ok(run: Promise<{ code: number | null; stdout: string; stderr: string }>) {
  const done = await run;
  expect(done.code, done.stderr).toBe(0);
  return done;
}

describe('glossary share, pull, propose and decide from the command line', () => {
  it('ana shares, cleo edits, ben pulls; ben offline proposes, sends it later once; cleo accepts; ben transcribes with the spellings', async () => {
    await ok(
      as('ana')([
        'glossary',
        'add',
        'Okonkwo',
        '--kind',
        'person',
        '--misheard',
        'Okon Quo',
        '--glossary',
        'City names',
      ]),
    );
    const shared = await ok(as('ana')(['glossary', 'share', 'City names', '--desk', 'City']));
    expect(shared.stdout).toBe(
      'Shared “City names” with City: ana and the editors of City change it, and everyone it is shared with gets it with glossary pull or the app.\n',
    );

    const cleoPull = await ok(as('cleo')(['glossary', 'pull']));
    expect(cleoPull.stdout).toBe('New in your library: “City names”, used for every new transcription.\n');
    const cleoAdd = await ok(
      as('cleo')([
        'glossary',
        'add',
        'Northwind Ferries',
        '--kind',
        'organisation',
        '--misheard',
        'North Wind',
        '--glossary',
        'City names',
      ]),
    );
    expect(cleoAdd.stdout).toContain('Sent to the newsroom.');

    const benPull = await ok(as('ben')(['glossary', 'pull', '--json']));
    expect(JSON.parse(benPull.stdout)).toMatchObject({ newCopies: ['City names'], conflicts: [] });
    const listed = await ok(as('ben')(['glossary', 'list', '--glossary', 'City names', '--json']));
    expect(
      (JSON.parse(listed.stdout) as { entries: { term: string }[] }[])[0]!.entries.map((e) => e.term),
    ).toEqual(['Northwind Ferries', 'Okonkwo']);
    const refused = await as('ben')(['glossary', 'add', 'Brennan', '--glossary', 'City names']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'Only ana and the editors of City change “City names”; propose the entry instead, and they decide whether it goes in.',
    );

    const offline = await ok(
      as('ben', { offline: true })([
        'glossary',
        'propose',
        'City names',
        'Brennan',
        '--kind',
        'person',
        '--misheard',
        'Brenan',
      ]),
    );
    expect(offline.stdout).toMatch(
      /^Proposed “Brennan” for “City names”\.\nWaits: .+; it is sent by the next command or the app\.\n$/,
    );
    const later = await ok(as('ben')(['glossary', 'pull']));
    expect(later.stdout).toBe('Sent 0 changes and 1 proposal.\n');
    await ok(as('ben')(['glossary', 'pull']));

    const proposals = await ok(as('cleo')(['glossary', 'proposals', '--json']));
    const open = (
      JSON.parse(proposals.stdout) as { id: string; proposedBy: string; entry: { term: string } }[]
    ).filter((proposal) => proposal.entry.term === 'Brennan');
    expect(open).toHaveLength(1);
    expect(open[0]!.proposedBy).toBe('ben');
    const accepted = await ok(as('cleo')(['glossary', 'accept', open[0]!.id.slice(0, 8)]));
    expect(accepted.stdout).toBe("Accepted ben's “Brennan” into “City names”.\n");
    const decidedTwice = await as('ana')(['glossary', 'decline', open[0]!.id]);
    expect(decidedTwice.code).not.toBe(0);

    const arrived = await ok(as('ben')(['glossary', 'pull']));
    expect(arrived.stdout).toBe('cleo added “Brennan” to “City names”.\n');

    // A transcription in ben's library sends the newsroom glossary's spellings.
    await fetch(`${emulator.url}/__admin/requests`, { method: 'DELETE' });
    await ok(as('ben')(['transcribe', interview, '--wait', '--json']));
    const log = (await (await fetch(`${emulator.url}/__admin/requests`)).json()) as {
      requests: { method: string; path: string; body?: Record<string, unknown> }[];
    };
    const request = log.requests.find((each) => each.method === 'POST' && each.path === '/v2/transcript');
    expect((request?.body?.keyterms_prompt as string[]).toSorted()).toEqual([
      'Brennan',
      'Northwind Ferries',
      'Okonkwo',
    ]);
    // A multi-word spelling is a key term only (a custom spelling's `to` is one word).
    expect(request?.body?.custom_spelling).toEqual([
      { from: ['Brenan'], to: 'Brennan' },
      { from: ['Okon Quo'], to: 'Okonkwo' },
    ]);
  }, 120_000);

  it('two processes change one entry offline: the one that reaches the newsroom first wins, and the other is told what was kept', async () => {
    await ok(as('ana')(['glossary', 'add', 'Ruiz', '--kind', 'person', '--glossary', 'Harbour names']));
    await ok(as('ana')(['glossary', 'share', 'Harbour names', '--desk', 'City']));
    await ok(as('cleo')(['glossary', 'pull']));
    const change = (user: string, note: string) =>
      ok(
        as(user, { offline: true })([
          'glossary',
          'add',
          'Ruiz',
          '--glossary',
          'Harbour names',
          '--merge',
          '--note',
          note,
        ]),
      );
    expect((await change('ana', 'harbour master')).stdout).toContain('Waits: ');
    expect((await change('cleo', 'port captain')).stdout).toContain('Waits: ');
    expect((await ok(as('cleo')(['glossary', 'pull']))).stdout).toBe('Sent 1 change and 0 proposals.\n');
    const lost = await ok(as('ana')(['glossary', 'pull']));
    // Anything else new in ana's copies is said first; the lost change is a line of its own.
    expect(lost.stdout).toMatch(
      /^Your change to “Ruiz” in “Harbour names” was not applied: cleo changed it on .+, before yours reached the newsroom \(the change that reaches the newsroom first wins\)\. Kept: “Ruiz” \(person; port captain\); yours was: “Ruiz” \(person; harbour master\)\.$/m,
    );
    const kept = await ok(as('ana')(['glossary', 'list', '--glossary', 'Harbour names']));
    expect(kept.stdout).toContain('(port captain)');
  }, 60_000);

  it('says what is wrong with the words given, in a sentence', async () => {
    const noDesk = await as('ana')(['glossary', 'share', 'General']);
    expect(noDesk.code).toBe(2);
    expect(noDesk.stderr).toContain('glossary share needs either --desk NAME or --whole-newsroom');
    const notShared = await as('ana')(['glossary', 'propose', 'General', 'Ruiz']);
    expect(notShared.code).not.toBe(0);
    expect(notShared.stderr).toContain('“General” is not a newsroom glossary: share it first');
    const badKind = await as('ana')(['glossary', 'propose', 'City names', 'Ruiz', '--kind', 'animal']);
    expect(badKind.code).toBe(2);
    expect(badKind.stderr).toContain('"animal" is not a kind');
  });
});
