import { describe, expect, it } from 'vitest';
import { unconfirmedKeyDestinations } from './key-destinations';
import { defaultSettings } from './settings';

const keys = new Set(['transcriptionKey', 'catalogKey'] as const);

describe('unconfirmedKeyDestinations', () => {
  it('asks before a stored key goes to a new server', () => {
    expect(
      unconfirmedKeyDestinations(defaultSettings, { transcriptionUrlUs: 'https://asr.example.com/v2' }, keys),
    ).toEqual([{ field: 'transcriptionUrlUs', origin: 'https://asr.example.com', key: 'transcriptionKey' }]);
    expect(
      unconfirmedKeyDestinations(defaultSettings, { catalogUrl: 'http://127.0.0.1:8787/api' }, keys),
    ).toEqual([{ field: 'catalogUrl', origin: 'http://127.0.0.1:8787', key: 'catalogKey' }]);
  });

  it('does not ask once confirmed, for the same server, back to the real service, or with no key stored', () => {
    const current = { ...defaultSettings, gatewayUrl: 'https://gw.example.com/v1' };
    const patch = { transcriptionUrlUs: 'https://asr.example.com' };
    expect(unconfirmedKeyDestinations(current, patch, keys, ['https://asr.example.com'])).toEqual([]);
    expect(unconfirmedKeyDestinations(current, { gatewayUrl: 'https://gw.example.com/v2' }, keys)).toEqual(
      [],
    );
    expect(unconfirmedKeyDestinations(current, { gatewayUrl: '' }, keys)).toEqual([]);
    expect(unconfirmedKeyDestinations(current, patch, new Set(['catalogKey'] as const))).toEqual([]);
    expect(unconfirmedKeyDestinations(current, { theme: 'dark' }, keys)).toEqual([]);
  });
});
