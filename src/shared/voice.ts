import { z } from 'zod';
import { snippetPartSchema } from './library';

/** The voice assistant's state, devices and conversations: what the voice core and the window share. */

export const voiceStateSchema = z.enum([
  'connecting',
  'configuring',
  'ready',
  'listening',
  'user-speaking',
  'thinking',
  'agent-speaking',
  'reconnecting',
  'closed',
]);
export type VoiceStateName = z.infer<typeof voiceStateSchema>;

export const voiceModeSchema = z.enum(['hands-free', 'push-to-talk']);

export const voiceStatusSchema = z.object({
  /**
   * Set when this computer's sound system cannot be used at all (the native audio backend
   * failed to load): why, in the journalist's words. The assistant cannot start; the UI says so.
   */
  audioUnavailable: z.string().min(1).optional(),
  state: voiceStateSchema,
  muted: z.boolean(),
  mode: voiceModeSchema,
  headphones: z.boolean(),
  inputDeviceId: z.number().int().nullable(),
  outputDeviceId: z.number().int().nullable(),
  conversationId: z.string().nullable(),
});
export type VoiceStatus = z.infer<typeof voiceStatusSchema>;

export const audioDeviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  inputs: z.number().int(),
  outputs: z.number().int(),
  defaultSampleRate: z.number(),
});
export type AudioDeviceInfo = z.infer<typeof audioDeviceSchema>;

export const turnRoleSchema = z.enum(['user', 'agent', 'tool']);
export type TurnRole = z.infer<typeof turnRoleSchema>;

export const conversationTurnSchema = z.object({
  id: z.number().int(),
  role: turnRoleSchema,
  text: z.string(),
  toolName: z.string().nullable(),
  interrupted: z.boolean(),
  at: z.number(),
});
export type ConversationTurn = z.infer<typeof conversationTurnSchema>;

export const conversationSummarySchema = z.object({
  id: z.string(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  turns: z.number().int(),
  firstQuestion: z.string().nullable(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

export const conversationHitSchema = z.object({
  conversationId: z.string(),
  turn: conversationTurnSchema,
  snippet: z.array(snippetPartSchema),
});
export type ConversationHit = z.infer<typeof conversationHitSchema>;
