import { z } from 'zod';
import { settingsPatchSchema, settingsSchema } from '../settings';

/**
 * The one IPC contract. Every method the renderer may call and every event main pushes is
 * declared here once, with zod schemas for what crosses the boundary. The preload, the
 * Electron main process and the web host are all typed from this object, so a method
 * without a handler or a bridge entry does not compile.
 */
const noInput = z.undefined();

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

export const contract = {
  'app.info': { input: noInput, output: appInfoSchema },
  'settings.get': { input: noInput, output: settingsSchema },
  'settings.set': { input: settingsPatchSchema, output: settingsSchema },
} as const satisfies Record<`${string}.${string}`, { input: z.ZodType; output: z.ZodType }>;

export const events = {
  'settings.changed': settingsSchema,
} as const satisfies Record<`${string}.${string}`, z.ZodType>;

export type Contract = typeof contract;
export type MethodName = keyof Contract;
export type MethodInput<M extends MethodName> = z.input<Contract[M]['input']>;
export type MethodOutput<M extends MethodName> = z.output<Contract[M]['output']>;

export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

/** The runtime list the preload and the web bridge build `window.api` from. */
export const methodNames = Object.keys(contract) as MethodName[];
export const eventNames = Object.keys(events) as EventName[];

/** Main side: one handler per method; a missing one is a compile error. */
export type Handlers = {
  [M in MethodName]: (input: z.output<Contract[M]['input']>) => Promise<MethodOutput<M>>;
};
