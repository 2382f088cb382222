import { z } from 'zod';

export const themeSchema = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof themeSchema>;

/**
 * User settings as stored by main. Secrets are deliberately absent: API keys live in the
 * platform key store and the renderer only ever learns whether one is set.
 */
export const settingsSchema = z.object({
  theme: themeSchema.default('system'),
  reduceMotion: z.boolean().default(false),
});
export type Settings = z.infer<typeof settingsSchema>;

export const settingsPatchSchema = settingsSchema.partial().strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const defaultSettings: Settings = settingsSchema.parse({});
