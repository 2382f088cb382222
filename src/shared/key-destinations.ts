import type { Settings, SettingsPatch } from './settings';

/**
 * A stored key goes only where the journalist said it may: changing a service's address in
 * Settings to another server needs their confirmation before the key is ever sent there, so a
 * mistyped or planted address cannot collect it (Test connection included).
 */
export type KeyName = 'transcriptionKey' | 'catalogKey';

/** Which key each address field carries. */
export const addressKeys = {
  transcriptionUrlUs: 'transcriptionKey',
  transcriptionUrlEu: 'transcriptionKey',
  gatewayUrl: 'transcriptionKey',
  voiceUrl: 'transcriptionKey',
  catalogUrl: 'catalogKey',
} as const satisfies Partial<Record<keyof Settings, KeyName>>;

export type AddressField = keyof typeof addressKeys;

/** "https://asr.example.com" from an address, or undefined for the real service ('') or nonsense. */
export function originOf(address: string): string | undefined {
  if (address.trim() === '') return undefined;
  try {
    return new URL(address.trim()).origin;
  } catch {
    return undefined;
  }
}

/**
 * The new servers this patch would send a stored key to, which the journalist has not
 * confirmed: empty when every changed address stays on its old server, goes back to the real
 * service, carries no stored key, or is among `confirmed` origins.
 */
export function unconfirmedKeyDestinations(
  current: Settings,
  patch: SettingsPatch,
  storedKeys: ReadonlySet<KeyName>,
  confirmed: readonly string[] = [],
): { field: AddressField; origin: string; key: KeyName }[] {
  const found: { field: AddressField; origin: string; key: KeyName }[] = [];
  for (const [field, key] of Object.entries(addressKeys) as [AddressField, KeyName][]) {
    const next = patch[field];
    if (next === undefined || !storedKeys.has(key)) continue;
    const origin = originOf(next);
    if (!origin || origin === originOf(current[field]) || confirmed.includes(origin)) continue;
    found.push({ field, origin, key });
  }
  return found;
}
