import { z } from 'zod';

/**
 * Checks for the web addresses a journalist types: where a recording is, and where a service
 * is. Plain http is for this machine only: anything else would send keys and recordings across
 * the network unencrypted.
 */

/** 127.0.0.0/8, ::1 and localhost: addresses that never leave this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function parse(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** Why a recording's address cannot be sent for transcription, or null when it can. */
export function recordingUrlProblem(text: string): string | null {
  const url = parse(text.trim());
  if (!url) return 'Enter a full web address, such as https://…';
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `Only web addresses (https:// or http://) can be transcribed, not ${url.protocol}// addresses.`;
  return null;
}

/** Why a service address cannot be used, or null when it can ('' means the real service). */
export function serviceAddressProblem(
  text: string,
  schemes: readonly string[] = ['https:', 'http:'],
): string | null {
  if (text === '') return null;
  const url = parse(text);
  if (!url) return 'Enter a full web address, such as https://…';
  if (!schemes.includes(url.protocol))
    return `Use an address starting with ${schemes.map((scheme) => `${scheme}//`).join(' or ')}.`;
  if (url.username || url.password)
    return 'Leave the user name and password out of the address: keys are set in Settings.';
  const plain = url.protocol === 'http:' || url.protocol === 'ws:';
  if (plain && !isLoopbackHost(url.hostname))
    return 'Plain http is only for this computer (localhost or 127.0.0.1): use https:// so your key is sent encrypted.';
  return null;
}

export const recordingUrlSchema = z.string().superRefine((text, context) => {
  const problem = recordingUrlProblem(text);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

export function serviceAddressSchema(schemes?: readonly string[]) {
  return z
    .string()
    .max(2048, 'That address is too long.')
    .superRefine((text, context) => {
      const problem = serviceAddressProblem(text, schemes);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    });
}

/**
 * A JSON value of bounded size and nesting (options, presets): a settings file is read on
 * every start and sent to the page, so a 20 MB or 5,000-deep value must be refused when set.
 */
export function boundedJson<T extends z.ZodType>(schema: T, limits: { maxBytes: number; maxDepth: number }) {
  return schema.superRefine((value, context) => {
    if (depthOver(value, limits.maxDepth)) {
      context.addIssue({
        code: 'custom',
        message: `Options may nest at most ${limits.maxDepth} levels deep.`,
      });
      return;
    }
    const bytes = new TextEncoder().encode(JSON.stringify(value) ?? '').length;
    if (bytes > limits.maxBytes)
      context.addIssue({
        code: 'custom',
        message: `These options are too large (${Math.ceil(bytes / 1024)} KB; at most ${Math.floor(limits.maxBytes / 1024)} KB).`,
      });
  });
}

/** Iterative, so a hostile 100,000-deep value cannot overflow the stack while being measured. */
function depthOver(value: unknown, maxDepth: number): boolean {
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= maxDepth) return true;
    for (const child of Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return false;
}
