#!/usr/bin/env node
// `npm test`: checks the machine's prerequisites, then runs every stage even when one fails
// (a lint error must not hide what the browser and desktop tests would say), reports each
// stage's result and exits 1 if any failed. It runs the project it is started in (npm starts
// it at the package's root): the stages are that package.json's scripts.
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/**
 * @typedef {object} Stage
 * @property {string} name
 * @property {string[]} command what runs, in the project's folder
 * @property {boolean} [gate] when it fails, no later stage can mean anything: none runs
 * @property {string} [needs] a stage that must have passed first
 */

/** Runs an npm script the way `npm run` does, with the npm that started this run when there is one. */
function npmRun(script) {
  const npm = process.env.npm_execpath;
  return npm ? [process.execPath, npm, 'run', script] : ['npm', 'run', script];
}

/** @type {Stage[]} */
export const stages = [
  { name: 'prerequisites', command: [process.execPath, 'scripts/check-prerequisites.mjs'], gate: true },
  { name: 'typecheck', command: npmRun('typecheck') },
  { name: 'lint', command: npmRun('lint') },
  { name: 'build', command: npmRun('build') },
  { name: 'unit', command: npmRun('test:unit') },
  { name: 'e2e', command: npmRun('test:e2e'), needs: 'build' },
  { name: 'electron', command: npmRun('test:electron'), needs: 'build' },
];

/**
 * The failing tests a stage's output names, so the summary at the end (all a CI log's tail may
 * show) says which failed: Vitest's `FAIL  file > test` lines, and the tests Playwright lists
 * under "N failed" (not those under "N flaky", which passed on a retry).
 */
export class FailureLines {
  /** @type {string[]} */
  names = [];
  #underFailed = false;
  #partial = '';

  /** @param {string} text a piece of the output, cut anywhere */
  add(text) {
    const lines = (this.#partial + text).split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) this.#line(line);
  }

  /** @returns {string[]} each failing test once, in the order first named */
  end() {
    if (this.#partial) this.#line(this.#partial);
    this.#partial = '';
    return [...new Set(this.names)];
  }

  /** @param {string} raw */
  #line(raw) {
    // eslint-disable-next-line no-control-regex -- colours are escape sequences
    const line = raw.replace(/\x1b\[[0-9;]*m/g, '').trimEnd();
    const vitest = /^\s*FAIL\s+(\S.*)$/.exec(line);
    if (vitest) return void this.names.push(vitest[1]);
    if (/^\s+\d+ failed$/.test(line)) return void (this.#underFailed = true);
    const listed = this.#underFailed ? /^\s+(\[[^\]]+\] › .+)$/.exec(line) : null;
    if (listed) this.names.push(listed[1]);
    else this.#underFailed = false;
  }
}

/** @returns {Promise<{ code: number | null; failures: string[] }>} the exit code (null when a signal ended it) and the failing tests it named */
function runCommand([program, ...args]) {
  return new Promise((resolveRun) => {
    const child = spawn(program, args, {
      stdio: ['inherit', 'pipe', 'pipe'],
      // `npm` alone is npm.cmd on Windows, which only a shell starts.
      shell: process.platform === 'win32' && program === 'npm',
    });
    const failures = new FailureLines();
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      failures.add(chunk.toString());
    });
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      failures.add(chunk.toString());
    });
    child.once('error', (error) => {
      console.error(`npm test: could not start ${program}: ${error.message}`);
      resolveRun({ code: 127, failures: [] });
    });
    child.once('close', (code) => resolveRun({ code, failures: failures.end() }));
  });
}

const stoppedByCtrlC = 'stopped by Ctrl+C';

/**
 * @param {Stage[]} plan
 * @returns {Promise<{ name: string; outcome: 'passed' | 'failed' | 'not run'; detail: string; failures: string[] }[]>}
 */
export async function runStages(plan, run = runCommand) {
  const results = [];
  let interrupted = false;
  const onInterrupt = () => (interrupted = true);
  process.on('SIGINT', onInterrupt);
  try {
    for (const stage of plan) {
      const gate = results.find((result) => result.gate && result.outcome !== 'passed');
      const needed = results.find((result) => result.name === stage.needs);
      let notRun;
      if (interrupted) notRun = stoppedByCtrlC;
      else if (gate) notRun = `the ${gate.name} stage failed`;
      else if (needed && needed.outcome !== 'passed') notRun = `it needs the ${needed.name}, which failed`;
      if (notRun) {
        results.push({
          name: stage.name,
          outcome: 'not run',
          detail: notRun,
          gate: stage.gate,
          failures: [],
        });
        continue;
      }
      console.log(`\n── npm test: ${stage.name} ${'─'.repeat(Math.max(3, 60 - stage.name.length))}`);
      const started = Date.now();
      const { code, failures } = await run(stage.command);
      const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
      results.push(
        code === 0
          ? { name: stage.name, outcome: 'passed', detail: took, gate: stage.gate, failures }
          : {
              name: stage.name,
              outcome: 'failed',
              detail: `${code === null ? 'ended by a signal' : `exit code ${code}`}, ${took}`,
              gate: stage.gate,
              failures,
            },
      );
    }
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  return results.map(({ name, outcome, detail, failures }) => ({ name, outcome, detail, failures }));
}

const failuresListed = 30;

/** @param {string[]} failures */
function failureList(failures) {
  const listed = failures.slice(0, failuresListed).map((name) => `             ✗ ${name}`);
  const more = failures.length - listed.length;
  return more > 0 ? [...listed, `             … and ${more} more`] : listed;
}

/**
 * The report: a line per stage, each failing test a stage named under it, then `N passed, N
 * failed` (and how many could not run) last.
 */
export function summary(results) {
  const width = Math.max(...results.map((result) => result.name.length));
  const count = (outcome) => results.filter((result) => result.outcome === outcome).length;
  const notRun = count('not run');
  return [
    '',
    'npm test, stage by stage:',
    ...results.flatMap((result) => [
      `  ${result.outcome.toUpperCase().padEnd(8)} ${result.name.padEnd(width)}  ${result.detail}`,
      ...failureList(result.failures ?? []),
    ]),
    `${count('passed')} passed, ${count('failed')} failed${notRun > 0 ? `, ${notRun} not run` : ''}`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await runStages(stages);
  console.log(summary(results));
  const stopped = results.some((result) => result.detail === stoppedByCtrlC);
  process.exit(stopped ? 130 : results.every((result) => result.outcome === 'passed') ? 0 : 1);
}
