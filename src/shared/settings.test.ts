import { describe, expect, it } from 'vitest';
import { settingsPatchSchema } from './settings';

describe('settingsPatchSchema', () => {
  it('keeps a patch to what it names, so saving one setting leaves the others alone', () => {
    expect(settingsPatchSchema.parse({ region: 'eu' })).toEqual({ region: 'eu' });
    expect(settingsPatchSchema.parse({})).toEqual({});
  });

  it('still checks what it names, and refuses unknown settings', () => {
    expect(settingsPatchSchema.safeParse({ transcriptionUrlUs: 'not an address' }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ transcriptionUrlUs: '' }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ apiKey: 'x' }).success).toBe(false);
  });
});
