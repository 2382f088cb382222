import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { runCli } from '../run-cli';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, euPort: 0, speed: 50 });
});
afterAll(() => emulator.close());

function env(dataDir: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    VERBATIM_DATA_DIR: dataDir,
    VERBATIM_CATALOG_KEY: emulator.options.key,
    VERBATIM_MANAGEMENT_KEY: emulator.options.managementKey,
    VERBATIM_CATALOG_URL: emulator.url,
    ...extra,
  };
}

async function cli(args: string[], environment: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTty: false,
    env: environment,
  });
  return { code, out: out.join('\n'), err: err.join('') };
}

describe('catalog on the command line', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-catalog-'));

  it('lists every model, as JSON or as lines with prices per million tokens', async () => {
    const json = await cli(['catalog', 'models', '--json'], env(dataDir));
    expect(json.code).toBe(0);
    expect((JSON.parse(json.out) as unknown[]).length).toBe(363);
    const human = await cli(['catalog', 'models'], env(dataDir));
    expect(human.out).toContain(
      'anthropic/claude-sonnet-4.5  Anthropic: Claude Sonnet 4.5  context 1M  in $3.00 / M tokens  out $15.00 / M tokens',
    );
  });

  it('filters by output modality, and counts the same models on the service', async () => {
    const images = await cli(['catalog', 'models', '--json', '--modality', 'image'], env(dataDir));
    const models = JSON.parse(images.out) as { architecture: { output_modalities: string[] } }[];
    expect(models.length).toBeGreaterThan(0);
    for (const model of models) expect(model.architecture.output_modalities).toContain('image');
    const count = await cli(['catalog', 'count', '--modality', 'image'], env(dataDir));
    expect(count).toMatchObject({ code: 0, out: String(models.length) });
    const all = await cli(['catalog', 'count', '--modality', 'all', '--json'], env(dataDir));
    expect(JSON.parse(all.out)).toEqual({ count: 363, outputModalities: 'all' });
    expect((await cli(['catalog', 'count', '--modality', 'video'], env(dataDir))).code).toBe(2);
  });

  it("shows a model's endpoints, and says when the management key is missing", async () => {
    const run = await cli(['catalog', 'endpoints', 'anthropic/claude-sonnet-4.5'], env(dataDir));
    expect(run.code).toBe(0);
    expect(run.out.split('\n')[0]).toBe('Anthropic: Claude Sonnet 4.5 (anthropic/claude-sonnet-4.5)');
    expect(run.out).toMatch(/^Anthropic {2}\S+ {2}context 1M {2}in \$3\.00 \/ M tokens/m);
    const refused = await cli(
      ['catalog', 'endpoints', 'openai/gpt-5'],
      env(dataDir, { VERBATIM_MANAGEMENT_KEY: undefined }),
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("Listing a model's provider endpoints needs a management key.");
  });

  it('prints a preset version with its config and system prompt', async () => {
    const run = await cli(['catalog', 'preset', 'fact-check', '2'], env(dataDir));
    expect(run.code).toBe(0);
    expect(run.out).toContain('"model": "openai/gpt-5"');
    expect(run.out).toContain('System prompt: List every checkable claim');
    const missing = await cli(['catalog', 'preset', 'fact-check', '5'], env(dataDir));
    expect(missing).toMatchObject({
      code: 2,
      err: 'verbatim: There is no version 5 of the preset "fact-check".\n',
    });
  });

  it('leads to the key when none is set, and lists the EU host with --eu', async () => {
    const noKey = await cli(
      ['catalog', 'models'],
      env(mkdtempSync(join(tmpdir(), 'verbatim-cli-catalog-')), {
        VERBATIM_CATALOG_KEY: undefined,
        VERBATIM_MANAGEMENT_KEY: undefined,
      }),
    );
    expect(noKey.code).toBe(2);
    expect(noKey.err).toContain('Set VERBATIM_CATALOG_KEY to your model catalog key.');
    const eu = await cli(
      ['catalog', 'models', '--json', '--eu'],
      env(dataDir, { VERBATIM_CATALOG_URL: emulator.euUrl }),
    );
    const ids = (JSON.parse(eu.out) as { id: string }[]).map((model) => model.id);
    expect(ids.length).toBeLessThan(363);
    expect(ids).not.toContain('openai/gpt-5');
  });

  it('answers from the saved catalog, with its age, when a refresh fails', async () => {
    const fromCache = await cli(
      ['catalog', 'models', '--json'],
      env(dataDir, { VERBATIM_CATALOG_URL: emulator.url, VERBATIM_CATALOG_KEY: 'revoked' }),
    );
    expect(fromCache.code).toBe(0);
    expect((JSON.parse(fromCache.out) as unknown[]).length).toBe(363);
    expect(fromCache.err).toMatch(
      /^verbatim: showing the catalog saved just now: The model catalog did not accept your key/,
    );
  });

  it('explains wrong usage with exit code 2', async () => {
    expect((await cli(['catalog', 'endpoints'], env(dataDir))).code).toBe(2);
    expect((await cli(['catalog', 'preset', 'fact-check', 'one'], env(dataDir))).code).toBe(2);
    const unknown = await cli(['catalog', 'weather'], env(dataDir));
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown catalog command "weather"');
  });
});
