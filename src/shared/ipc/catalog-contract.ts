import { z } from 'zod';
import {
  cachedEndpointsSchema,
  cachedPresetSchema,
  catalogModelSchema,
  catalogOverviewSchema,
} from '../catalog';
import { secretKeyInputSchema, secretsStatusSchema } from '../secrets';

/** The model catalog's methods and events, spread into the one contract (contract.ts). */
const noInput = z.undefined();
const modelIdSchema = z.string().min(3).max(300);

export const catalogContract = {
  /** The cached catalog at once; starts a background refresh when it is stale. */
  'catalog.overview': { input: noInput, output: catalogOverviewSchema },
  /** Fetches the catalog now; a failure keeps the cache and is reported in the overview. */
  'catalog.refresh': { input: noInput, output: catalogOverviewSchema },
  /** One model in full from the cache, for its page and the comparison (the list has lean rows). */
  'catalog.model': { input: z.object({ modelId: modelIdSchema }).strict(), output: catalogModelSchema },
  'catalog.endpoints': {
    input: z.object({ modelId: modelIdSchema, refresh: z.boolean().default(false) }).strict(),
    output: cachedEndpointsSchema,
  },
  'catalog.preset': {
    input: z
      .object({
        slug: z.string().min(1, 'Enter the preset name.').max(200),
        version: z.number().int().min(1, 'A preset version is a whole number from 1.'),
      })
      .strict(),
    output: cachedPresetSchema,
  },
  'secrets.setCatalogKey': { input: secretKeyInputSchema, output: secretsStatusSchema },
  'secrets.clearCatalogKey': { input: noInput, output: secretsStatusSchema },
  'secrets.setManagementKey': { input: secretKeyInputSchema, output: secretsStatusSchema },
  'secrets.clearManagementKey': { input: noInput, output: secretsStatusSchema },
} as const satisfies Record<`${string}.${string}`, { input: z.ZodType; output: z.ZodType }>;

export const catalogEvents = {
  /** A refresh finished (asked for or in the background): the new overview, or the error. */
  'catalog.refreshed': catalogOverviewSchema,
} as const satisfies Record<`${string}.${string}`, z.ZodType>;
