#!/usr/bin/env node
// What `npm test` needs on this machine besides node_modules, checked before any stage runs so
// a fresh machine hears in one message everything it lacks and how to install it, instead of
// failing tests one by one (README.md, "What npm test needs", lists the same).
// The native modules' build tools (Python, a C++ toolchain, libasound2-dev) are not checked
// here: `npm install` and the `pretest` step build with them and say themselves what is missing.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findChromium } from './chromium.mjs';

/** The oldest Node that runs the test suite (the desktop app itself needs 22.12). */
const oldestNode = [20, 19];

/**
 * @typedef {object} Machine What the check asks of the machine; the test gives a made-up one.
 * @property {NodeJS.Platform} platform
 * @property {Record<string, string | undefined>} env
 * @property {string} nodeVersion e.g. "20.19.1"
 * @property {(name: string) => boolean} hasCommand a program on PATH
 * @property {() => string | undefined} chromium the browser the end-to-end tests would use
 * @property {() => Promise<boolean>} hasCjkFont the PDF export's own lookup of a CJK font
 */

/**
 * @typedef {object} Prerequisite
 * @property {string} what what is missing, in words
 * @property {string} why what needs it
 * @property {string | undefined} debian the Debian/Ubuntu package, when there is one
 * @property {string} elsewhere how to get it on macOS and Windows
 */

/**
 * What this machine lacks: `missing` stops `npm test`; `skipped` only means a stage will say
 * NOT RUN (a browser, outside CI, as the end-to-end stage has always allowed).
 * @param {Machine} machine
 * @returns {Promise<{ missing: Prerequisite[]; skipped: Prerequisite[] }>}
 */
export async function checkPrerequisites(machine) {
  const missing = [];
  const skipped = [];
  const [major = 0, minor = 0] = machine.nodeVersion.split('.').map(Number);
  if (major < oldestNode[0] || (major === oldestNode[0] && minor < oldestNode[1])) {
    missing.push({
      what: `Node.js ${oldestNode.join('.')} or newer (this is ${machine.nodeVersion})`,
      why: 'the test suite',
      debian: undefined,
      elsewhere: 'https://nodejs.org',
    });
  }
  if (!machine.chromium()) {
    const browser = {
      what: 'Chromium or Chrome (or VERBATIM_CHROMIUM naming one)',
      why: 'the end-to-end tests',
      debian: 'chromium',
      elsewhere: 'install Google Chrome',
    };
    (machine.env.CI ? missing : skipped).push(browser);
  }
  if (!(await machine.hasCjkFont())) {
    missing.push({
      what: 'a Chinese, Japanese and Korean font',
      why: 'the PDF export tests',
      debian: 'fonts-noto-cjk',
      elsewhere: 'the system fonts are enough',
    });
  }
  const commands = [
    {
      name: 'pdftotext',
      why: 'reading exported PDFs back',
      debian: 'poppler-utils',
      elsewhere: 'brew install poppler',
    },
    { name: 'sox', why: "the README's emulator example", debian: 'sox', elsewhere: 'brew install sox' },
    { name: 'jq', why: "the README's emulator example", debian: 'jq', elsewhere: 'brew install jq' },
    { name: 'bash', why: "the README's emulator example", debian: 'bash', elsewhere: 'Windows: Git Bash' },
  ];
  for (const command of commands) {
    if (machine.hasCommand(command.name)) continue;
    missing.push({
      what: command.name,
      why: command.why,
      debian: command.debian,
      elsewhere: command.elsewhere,
    });
  }
  return { missing, skipped };
}

/**
 * Everything missing in one message, with the command that installs it on this system;
 * undefined when nothing is.
 * @param {{ missing: Prerequisite[]; skipped: Prerequisite[] }} found
 * @param {NodeJS.Platform} platform
 */
export function prerequisitesMessage(found, platform) {
  const lines = [];
  const item = (prerequisite) =>
    `  - ${prerequisite.what}, for ${prerequisite.why} (${
      platform === 'linux' && prerequisite.debian ? prerequisite.debian : prerequisite.elsewhere
    })`;
  if (found.missing.length > 0) {
    lines.push('npm test needs what this machine does not have:', ...found.missing.map(item));
    const packages = found.missing.flatMap((prerequisite) => prerequisite.debian ?? []);
    if (platform === 'linux' && packages.length > 0)
      lines.push(`On Debian or Ubuntu: sudo apt-get install ${packages.join(' ')}`);
    lines.push('Install them and run npm test again; README.md, "What npm test needs", lists every one.');
  }
  if (found.skipped.length > 0) {
    lines.push('Not found, so those tests will say NOT RUN (required under CI):', ...found.skipped.map(item));
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/** Is `name` a program on PATH (with Windows' extensions)? */
function onPath(name, env, platform) {
  const extensions = platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  return (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((dir) =>
      extensions.some((extension) => {
        try {
          accessSync(join(dir, `${name}${extension}`), constants.X_OK);
          return true;
        } catch {
          return false;
        }
      }),
    );
}

/** @type {Machine} */
export const thisMachine = {
  platform: process.platform,
  env: process.env,
  nodeVersion: process.versions.node,
  hasCommand: (name) => onPath(name, process.env, process.platform),
  chromium: () => findChromium(process.env),
  // The very lookup the PDF export makes (TypeScript, loaded through tsx), so the check and the
  // tests can never disagree about which fonts count.
  hasCjkFont: async () => {
    const { tsImport } = await import('tsx/esm/api');
    const fonts = await tsImport('../src/main/core/export/fonts.ts', import.meta.url);
    return fonts.systemCjkFonts() !== null;
  },
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const found = await checkPrerequisites(thisMachine);
  const message = prerequisitesMessage(found, process.platform);
  if (message) (found.missing.length > 0 ? console.error : console.warn)(message);
  else console.log('Every prerequisite of npm test is here.');
  process.exit(found.missing.length > 0 ? 1 : 0);
}
