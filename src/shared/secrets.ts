import { z } from 'zod';

/** The renderer learns only whether a key is set, never the key. */
export const secretsStatusSchema = z.object({
  transcriptionKeySet: z.boolean(),
  catalogKeySet: z.boolean(),
  managementKeySet: z.boolean(),
});
export type SecretsStatus = z.infer<typeof secretsStatusSchema>;

/** A key typed in Settings on its way to the secure store. */
export const secretKeyInputSchema = z.object({ key: z.string().min(1, 'Enter the key.').max(500) }).strict();
