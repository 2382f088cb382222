/**
 * Where the voice agent lives. The spec does not show the WebSocket address; this is
 * AssemblyAI's documented voice agent endpoint (wss://agents.assemblyai.com/v1/ws, with the
 * one-time token at GET https://agents.assemblyai.com/v1/token). Settings' `voiceUrl` or the
 * VERBATIM_VOICE_URL environment variable point it elsewhere (the emulator in tests), given as
 * the server's base (http://127.0.0.1:4010) or the socket itself (ws://…/v1/ws).
 */
export const DEFAULT_VOICE_URL = 'wss://agents.assemblyai.com/v1/ws';

const SOCKET_PATH = '/v1/ws';
const TOKEN_PATH = '/v1/token';

export interface VoiceAddress {
  /** The WebSocket URL (ws: or wss:). */
  socketUrl: string;
  /** Where GET /v1/token is asked for a one-time token (http: or https:). */
  tokenUrl: string;
}

export function voiceAddress(override: string | undefined): VoiceAddress {
  const url = new URL(override?.trim() ? override.trim() : DEFAULT_VOICE_URL);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  if (url.protocol === 'https:') url.protocol = 'wss:';
  if (url.pathname === '/' || url.pathname === '') url.pathname = SOCKET_PATH;
  const socketUrl = url.toString();
  const token = new URL(socketUrl);
  token.protocol = token.protocol === 'ws:' ? 'http:' : 'https:';
  token.pathname = token.pathname.replace(/\/ws\/?$/, '') + '/token';
  if (!token.pathname.endsWith(TOKEN_PATH)) token.pathname = TOKEN_PATH;
  token.search = '';
  return { socketUrl, tokenUrl: token.toString() };
}
