import { z } from 'zod';

/**
 * Where each service shown in Settings is reached, for Settings to say which address is in use:
 * an address Verbatim was started with (an environment variable, or the web host's start
 * option) wins over the one typed in Settings, and an empty field means the service's own.
 */
export const addressInUseSchema = z.object({
  /** The address Verbatim was started with, and the variable that sets it; null when none. */
  startedWith: z.object({ url: z.string(), variable: z.string() }).nullable(),
  /** The service's own address, used when neither is set. */
  serviceDefault: z.string(),
});
export type AddressInUse = z.infer<typeof addressInUseSchema>;

export const serviceAddressesSchema = z.object({
  transcriptionUrlUs: addressInUseSchema,
  transcriptionUrlEu: addressInUseSchema,
  catalogUrl: addressInUseSchema,
  gatewayUrl: addressInUseSchema,
});
export type ServiceAddresses = z.infer<typeof serviceAddressesSchema>;
export type ShownAddressField = keyof ServiceAddresses;
