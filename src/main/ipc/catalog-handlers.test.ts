import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../test/emulator/server';
import { MemorySecrets } from '../core/secrets/secret-store';
import { composeServices } from '../compose';
import { createDispatcher } from './dispatcher';
import { createHandlers } from './create-handlers';
import { wireEvents } from './events';
import { unwrap } from '../../shared/ipc/envelope';
import type { EventName } from '../../shared/ipc/contract';
import type { CachedEndpoints, CachedPreset, CatalogModel, CatalogOverview } from '../../shared/catalog';
import type { SecretsStatus } from '../../shared/secrets';

let emulator: RunningEmulator;
let services: ReturnType<typeof composeServices>;
let dispatch: ReturnType<typeof createDispatcher>;
const events: { event: EventName; payload: unknown }[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, euPort: 0, speed: 50 });
  services = composeServices({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-catalog-ipc-')),
    appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
    secrets: new MemorySecrets(),
  });
  await services.settings.set({ catalogUrl: emulator.url });
  dispatch = createDispatcher(createHandlers(services));
  wireEvents(services, (event, payload) => events.push({ event, payload }));
});
afterAll(async () => {
  await services.close();
  await emulator.close();
});

async function call<T>(method: string, input?: unknown): Promise<T> {
  return unwrap(await dispatch(method, input)) as T;
}

describe('the catalog over the contract', () => {
  it('stores the two keys and tells only whether each is set', async () => {
    expect(await call<SecretsStatus>('secrets.status')).toEqual({
      transcriptionKeySet: false,
      catalogKeySet: false,
      managementKeySet: false,
    });
    await call('secrets.setCatalogKey', { key: emulator.options.key });
    const status = await call<SecretsStatus>('secrets.setManagementKey', {
      key: emulator.options.managementKey,
    });
    expect(status).toEqual({ transcriptionKeySet: false, catalogKeySet: true, managementKeySet: true });
    expect(services.secrets.peek('managementKey')).toBe(emulator.options.managementKey);
  });

  it('answers from the cache at once and announces the background refresh', async () => {
    const first = await call<CatalogOverview>('catalog.overview');
    expect(first).toMatchObject({ fetchedAt: null, refreshing: true, models: { id: [] } });
    await expect
      .poll(() => events.some((e) => e.event === 'catalog.refreshed'), { timeout: 5000 })
      .toBe(true);
    const pushed = events.find((e) => e.event === 'catalog.refreshed')?.payload as CatalogOverview;
    expect(pushed.models.id).toHaveLength(363);
    const cached = await call<CatalogOverview>('catalog.overview');
    expect(cached).toMatchObject({ refreshing: false, stale: false, fetchedAt: pushed.fetchedAt });
    expect(cached.counts?.image).toBeGreaterThan(0);
  });

  it('switches to the EU host from Settings, with its own shorter list', async () => {
    await services.settings.set({ catalogRegion: 'eu', catalogUrl: emulator.euUrl });
    const eu = await call<CatalogOverview>('catalog.refresh');
    expect(eu.region).toBe('eu');
    expect(eu.models.id.length).toBeLessThan(363);
    await services.settings.set({ catalogRegion: 'us', catalogUrl: emulator.url });
    expect((await call<CatalogOverview>('catalog.overview')).models.id).toHaveLength(363);
  });

  it('opens a model with its endpoints and a preset version', async () => {
    const model = await call<CatalogModel>('catalog.model', { modelId: 'google/gemini-2.5-flash' });
    expect(model.id).toBe('google/gemini-2.5-flash');
    expect(model.architecture.input_modalities).toContain('text');
    expect(await dispatch('catalog.model', { modelId: 'acme/unknown' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    const endpoints = await call<CachedEndpoints>('catalog.endpoints', {
      modelId: 'google/gemini-2.5-flash',
    });
    expect(endpoints.model.endpoints.length).toBeGreaterThan(0);
    const preset = await call<CachedPreset>('catalog.preset', { slug: 'interview-questions', version: 3 });
    expect(preset.preset.config.model).toBe('google/gemini-3-flash-preview');
  });

  it('passes the management-key message through to the renderer after the key is cleared', async () => {
    await call('secrets.clearManagementKey');
    const answer = await dispatch('catalog.endpoints', {
      modelId: 'openai/gpt-5',
      refresh: true,
    });
    expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(JSON.stringify(answer)).toContain('needs a management key');
    expect(await call<SecretsStatus>('secrets.clearCatalogKey')).toMatchObject({ catalogKeySet: false });
  });
});
