import { servesEu } from '../catalog/catalog-data';
import type { Catalog, CatalogEntry } from '../catalog/catalog-types';
import type { Region } from '../types';
import type { EffectiveRequest } from './request-schema';

/**
 * Which models the gateway knows: every text-producing model of the emulated catalog, by its id
 * (`anthropic/claude-sonnet-4.5`) or by a short gateway-style name (`claude-sonnet-4-5`,
 * `claude-sonnet-4-5-20250929`). Through the EU port only models the catalog flags for EU
 * in-region routing are served, as AssemblyAI serves only some providers in the EU.
 *
 * Emulator-only names let clients exercise failure paths deterministically:
 * - `fail-<anything>`: the provider always fails (so fallbacks and retries are used);
 * - `<model>-sloppy`: JSON answers come back slightly broken (for the json-repair step);
 * - `<model>-flaky`: the provider fails part-way through the answer (mid-stream when streaming).
 */

const FAIL_PREFIX = 'fail-';
const SLOPPY_MARK = '-sloppy';
const FLAKY_MARK = '-flaky';

export interface ResolvedModel {
  /** The name as the client sent it; responses report it as `model`. */
  name: string;
  /** Undefined for `fail-` models, which exist only to fail. */
  entry: CatalogEntry | undefined;
  alwaysFails: boolean;
  failsPartWay: boolean;
  sloppyJson: boolean;
}

export type ModelResolver = (name: string, region: Region) => ResolvedModel | { error: string };

export function createModelResolver(catalog: Catalog): ModelResolver {
  const byName = new Map<string, CatalogEntry>();
  for (const entry of catalog.entries) byName.set(entry.model.id, entry);
  for (const entry of catalog.entries) {
    for (const alias of [entry.model.canonical_slug, ...entry.gatewayAliases]) {
      if (!byName.has(alias)) byName.set(alias, entry);
    }
  }
  return (name, region) => {
    if (name.startsWith(FAIL_PREFIX)) {
      return { name, entry: undefined, alwaysFails: true, failsPartWay: false, sloppyJson: false };
    }
    const baseName = name.replace(SLOPPY_MARK, '').replace(FLAKY_MARK, '');
    const entry = byName.get(baseName);
    if (!entry) return { error: `"${name}" is not a known model` };
    if (!entry.model.architecture.output_modalities.includes('text')) {
      return { error: `"${name}" does not produce text, so it cannot answer chat completions` };
    }
    if (region === 'eu' && !servesEu(entry)) return { error: `"${name}" is not available in the EU region` };
    return {
      name,
      entry,
      alwaysFails: false,
      failsPartWay: name.includes(FLAKY_MARK),
      sloppyJson: name.includes(SLOPPY_MARK),
    };
  };
}

/** Tools and response_format are "not supported by every model": the catalog's parameter list decides. */
export function unsupportedFeature(model: ResolvedModel, request: EffectiveRequest): string | undefined {
  const parameters = model.entry?.model.supported_parameters;
  if (!parameters) return undefined;
  if (request.tools?.length && !parameters.includes('tools'))
    return `model "${model.name}" does not support tools`;
  if (
    request.response_format &&
    !parameters.some((name) => name === 'response_format' || name === 'structured_outputs')
  ) {
    return `model "${model.name}" does not support response_format`;
  }
  return undefined;
}
