import { describe, expect, it } from 'vitest';
import { applicationMenuTemplate } from './menu';

describe('the application menu', () => {
  it('has the usual roles on every platform, and the app menu on macOS', () => {
    const roles = (platform: NodeJS.Platform) =>
      JSON.stringify(applicationMenuTemplate(platform, 'Verbatim'));
    expect(roles('linux')).toContain('"editMenu"');
    expect(roles('linux')).toContain('"windowMenu"');
    expect(roles('linux')).toContain('"quit"');
    expect(roles('linux')).not.toContain('"hideOthers"');
    expect(applicationMenuTemplate('darwin', 'Verbatim')[0]?.label).toBe('Verbatim');
    expect(roles('darwin')).toContain('"hideOthers"');
  });
});
