import { z } from 'zod';
import {
  audioDeviceSchema,
  conversationHitSchema,
  conversationSummarySchema,
  conversationTurnSchema,
  voiceModeSchema,
  voiceStatusSchema,
} from '../voice';

/** The voice assistant's IPC methods and events (issue #9); spread into the one contract. */

const deviceId = z.number().int().min(-1).max(10_000).nullable();

export const voiceContract = {
  'voice.start': { input: z.undefined(), output: voiceStatusSchema },
  'voice.stop': { input: z.undefined(), output: voiceStatusSchema },
  'voice.status': { input: z.undefined(), output: voiceStatusSchema },
  'voice.setMuted': { input: z.object({ muted: z.boolean() }).strict(), output: voiceStatusSchema },
  'voice.setMode': { input: z.object({ mode: voiceModeSchema }).strict(), output: voiceStatusSchema },
  'voice.setHeadphones': {
    input: z.object({ headphones: z.boolean() }).strict(),
    output: voiceStatusSchema,
  },
  /** Push-to-talk: the talk button is held (true) or released (false). */
  'voice.pushToTalk': { input: z.object({ talking: z.boolean() }).strict(), output: voiceStatusSchema },
  'voice.devices': { input: z.undefined(), output: z.array(audioDeviceSchema) },
  'voice.selectDevices': {
    input: z.object({ inputDeviceId: deviceId.optional(), outputDeviceId: deviceId.optional() }).strict(),
    output: voiceStatusSchema,
  },
  'voice.conversations': {
    input: z
      .object({ limit: z.number().int().min(1).max(200).optional() })
      .strict()
      .default({}),
    output: z.array(conversationSummarySchema),
  },
  'voice.conversation': {
    input: z.object({ id: z.string().min(1).max(100) }).strict(),
    output: z.array(conversationTurnSchema),
  },
  'voice.search': {
    input: z.object({ query: z.string().min(1).max(500) }).strict(),
    output: z.array(conversationHitSchema),
  },
  /** Opens the small always-on-top assistant window (desktop app only). */
  'voice.openWindow': { input: z.undefined(), output: z.object({ opened: z.boolean() }) },
} as const;

export const voiceEvents = {
  'voice.status': voiceStatusSchema,
  'voice.transcript': z.object({
    role: z.enum(['user', 'agent']),
    text: z.string(),
    final: z.boolean(),
    interrupted: z.boolean(),
  }),
  'voice.toolCall': z.object({
    callId: z.string(),
    name: z.string(),
    arguments: z.unknown(),
    status: z.enum(['running', 'sent', 'dropped']),
    result: z.string().optional(),
  }),
  'voice.level': z.object({ rms: z.number(), peak: z.number() }),
  'voice.error': z.object({ code: z.string(), message: z.string() }),
} as const;
