import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const yml = readFileSync(join(root, 'electron-builder.yml'), 'utf8');

describe('the Debian package', () => {
  it('depends on everything electron-builder would have listed, and on ALSA', () => {
    // electron-builder's own default list, read from the installed version so an upgrade is followed.
    const fpmTarget = createRequire(join(root, 'package.json')).resolve(
      'app-builder-lib/out/targets/FpmTarget.js',
    );
    const source = readFileSync(fpmTarget, 'utf8');
    const defaults = /case "deb":\s*return (\[[^\]]+\])/.exec(source)?.[1];
    expect(
      defaults,
      'electron-builder no longer lists its deb defaults where this test reads them',
    ).toBeDefined();
    const electronBuilderDepends = JSON.parse(defaults!) as string[];
    const ours = /^deb:\n {2}depends:\n((?: {4}- .+\n)+)/m
      .exec(yml)?.[1]
      ?.split('\n')
      .filter(Boolean)
      .map((line) => line.replace(/^ {4}- /, ''));
    expect(ours).toEqual([...electronBuilderDepends, 'libasound2']);
  });
});

describe('the packaged binary', () => {
  it('flips the fuses that let a local process run code inside Verbatim', () => {
    const block = /^electronFuses:\n((?: {2}\w+: \w+\n)+)/m.exec(yml)?.[1] ?? '';
    const fuses = Object.fromEntries(
      block
        .trim()
        .split('\n')
        .map((line) => line.trim().split(': ') as [string, string]),
    );
    expect(fuses).toMatchObject({
      runAsNode: 'false',
      enableNodeOptionsEnvironmentVariable: 'false',
      enableNodeCliInspectArguments: 'false',
      enableEmbeddedAsarIntegrityValidation: 'true',
      onlyLoadAppFromAsar: 'true',
    });
    // Each name is one electron-builder knows (a misspelt fuse would be ignored silently).
    const known = readFileSync(
      createRequire(join(root, 'package.json')).resolve('app-builder-lib/out/configuration.d.ts'),
      'utf8',
    );
    for (const name of Object.keys(fuses)) expect(known).toContain(`${name}?: boolean`);
  });
});

describe('the macOS app', () => {
  it('may use the microphone under the hardened runtime, and says why in every use', () => {
    expect(yml).toMatch(/^ {2}hardenedRuntime: true$/m);
    const entitlements = /^ {2}entitlements: (.+)$/m.exec(yml)?.[1];
    expect(entitlements).toBe('build/entitlements.mac.plist');
    expect(/^ {2}entitlementsInherit: (.+)$/m.exec(yml)?.[1]).toBe(entitlements);
    const plist = readFileSync(join(root, entitlements!), 'utf8');
    expect(plist).toMatch(/<key>com\.apple\.security\.device\.audio-input<\/key>\s*<true\/>/);
    const usage = /NSMicrophoneUsageDescription: (.+)$/m.exec(yml)?.[1] ?? '';
    expect(usage).toContain('record interviews');
    expect(usage).toContain('assistant');
  });
});
