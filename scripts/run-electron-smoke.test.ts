import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, 'run-electron-smoke.mjs');

describe('npm test without an Electron program', () => {
  it('says loudly that the desktop smoke test did not run, and why, without failing the run', () => {
    const electronDir = mkdtempSync(join(tmpdir(), 'verbatim-no-electron-'));
    writeFileSync(join(electronDir, 'package.json'), '{"name":"electron"}');
    const env: NodeJS.ProcessEnv = { ...process.env, VERBATIM_ELECTRON_PACKAGE_DIR: electronDir };
    delete env.ELECTRON_OVERRIDE_DIST_PATH;
    const result = spawnSync(process.execPath, [script], { env, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('ELECTRON SMOKE TEST NOT RUN');
    expect(result.stderr).toContain('was not tested');
    expect(result.stdout).toBe('');
  });
});
