import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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
  it('names the homepage and a maintainer with an email, without which --linux deb stops', () => {
    // electron-builder's deb target refuses to start without them: read from the installed
    // version which fields it asks for, then check that package.json gives them.
    const source = readFileSync(
      createRequire(join(root, 'package.json')).resolve('app-builder-lib/out/targets/FpmTarget.js'),
      'utf8',
    );
    expect(source).toContain('Please specify project homepage');
    expect(source).toMatch(/metadata\.author;\s*if \(a == null \|\| a\.email == null\)/);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      homepage?: string;
      author?: { name?: string; email?: string };
    };
    expect(new URL(manifest.homepage ?? '').protocol).toBe('https:');
    expect(manifest.author?.name).toBe('Verbatim');
    expect(manifest.author?.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
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

describe('the Windows installer', () => {
  // electron-builder documents file associations as working on Windows only with
  // nsis.perMachine: true (FileAssociation.d.ts), which would make every install ask for
  // administrator rights. Its NSIS templates have registered them for per-user installs too
  // since electron-builder 20 (pull request 2861): read from the installed version, so an
  // upgrade that goes back to per-machine only fails here instead of losing "Open with".
  const templates = join(
    dirname(createRequire(join(root, 'package.json')).resolve('app-builder-lib/package.json')),
    'templates',
    'nsis',
  );

  it('registers the file associations whatever the install mode, so perMachine is not needed', () => {
    const installSection = readFileSync(join(templates, 'installSection.nsh'), 'utf8').split('\n');
    const at = installSection.findIndex((line) => line.trim() === '!insertmacro registerFileAssociations');
    expect(at, 'installSection.nsh inserts registerFileAssociations').toBeGreaterThan(0);
    // The conditional blocks still open at that line: only "if the macro exists", none that
    // depends on the install mode (INSTALL_MODE_PER_ALL_USERS…).
    const open: string[] = [];
    for (const line of installSection.slice(0, at).map((text) => text.trim())) {
      if (/^!if(n?def|macrodef|macrondef)?\b/.test(line)) open.push(line);
      else if (line.startsWith('!endif')) open.pop();
    }
    expect(open).toEqual(['!ifmacrodef registerFileAssociations']);
    // Each association is written under SHELL_CONTEXT: HKCU for a per-user install, HKLM for all users.
    const associate = readFileSync(join(templates, 'include', 'FileAssociation.nsh'), 'utf8');
    const macro = /!macro APP_ASSOCIATE (.+)\n([\s\S]*?)!macroend/.exec(associate)?.[2] ?? '';
    expect(macro).toMatch(/WriteRegStr SHELL_CONTEXT "Software\\Classes\\\.\$\{EXT\}"/);
    expect(macro).not.toMatch(/\bHK(LM|CU|CR)\b/);
    const multiUser = readFileSync(join(templates, 'multiUser.nsh'), 'utf8');
    expect(multiUser).toMatch(/!macro setInstallModePerUser[\s\S]*?SetShellVarContext current/);
    expect(multiUser).toMatch(/!macro setInstallModePerAllUsers[\s\S]*?SetShellVarContext all/);
  });

  it('lets the user choose a per-user install (no administrator rights) or one for all users', () => {
    const nsis = /^nsis:\n((?: {2}.+\n)+)/m.exec(yml)?.[1] ?? '';
    expect(nsis).toMatch(/^ {2}oneClick: false$/m);
    // perMachine: true would drop the choice and always ask for administrator rights.
    expect(nsis).not.toMatch(/^ {2}perMachine: true$/m);
    expect(yml).toMatch(/^fileAssociations:$/m);
  });
});
