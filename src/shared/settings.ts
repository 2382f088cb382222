import { z } from 'zod';

export const themeSchema = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof themeSchema>;

/**
 * User settings as stored by main. Secrets are deliberately absent: API keys live in the
 * platform key store and the renderer only ever learns whether one is set.
 */
const serviceUrlSchema = z.union([
  z.literal(''),
  z.url({ message: 'Enter a full web address, such as https://…' }),
]);

export const settingsSchema = z.object({
  theme: themeSchema.default('system'),
  reduceMotion: z.boolean().default(false),
  /** Where recordings are processed: the service's US or EU region. */
  region: z.enum(['us', 'eu']).default('us'),
  /** Overrides of the services' addresses ('' = the real service). */
  transcriptionUrlUs: serviceUrlSchema.default(''),
  transcriptionUrlEu: serviceUrlSchema.default(''),
});
export type Settings = z.infer<typeof settingsSchema>;

export const settingsPatchSchema = settingsSchema.partial().strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const defaultSettings: Settings = settingsSchema.parse({});
