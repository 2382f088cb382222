import { describe, expect, it } from 'vitest';
import { resolveKeymap } from './keymap';
import { settingsPatchSchema, settingsSchema } from './settings';

describe('the journalist’s key bindings in the settings', () => {
  it('load from a settings file written before they existed, as the defaults', () => {
    const older = settingsSchema.parse({ theme: 'dark', playPauseKey: 'F4' });
    expect(older.keyBindings).toEqual({});
    expect(resolveKeymap(older, 'linux')['transcribe.toggle-play']).toEqual(['F4', 'Mod+Space']);
  });

  it('take chords by command id, refuse what is not a key, and keep ids a newer version wrote', () => {
    expect(settingsPatchSchema.safeParse({ keyBindings: { 'player.toggle': ['Mod+K'] } }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ keyBindings: { 'player.toggle': ['two words'] } }).success).toBe(
      false,
    );
    expect(settingsPatchSchema.safeParse({ keyBindings: { 'not a command': ['K'] } }).success).toBe(false);
    const newer = settingsSchema.parse({ keyBindings: { 'future.command': ['F2'], 'help.show': ['F1'] } });
    expect(resolveKeymap(newer, 'linux')['help.show']).toEqual(['F1']);
  });
});
