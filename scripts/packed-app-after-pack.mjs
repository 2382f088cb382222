// electron-builder's afterPack hook (electron-builder.yml): refuses a packed app whose native
// addons are built for another ABI than the Electron it ships. Such an app installs fine and
// then fails the moment it opens its library or the microphone ("was compiled against a
// different Node.js version"), on the user's machine; `npm test` swaps Node's builds into
// node_modules, so packaging right after it would produce exactly that app.
//
// VERBATIM_ALLOW_WRONG_ABI=1 turns the refusal into a report, for scripts/packed-app.test.ts,
// which packs Node's builds on purpose (Electron's cannot be built offline) to inspect the rest
// of the pack. Nothing else should set it: such a pack cannot run.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { checkAddonAbis } from './packed-app.mjs';

export const allowWrongAbiVariable = 'VERBATIM_ALLOW_WRONG_ABI';

/** @param {import('app-builder-lib').AfterPackContext} context */
export default async function afterPack(context) {
  const electronVersion = context.packager.info.framework.version;
  const nodeAbi = createRequire(join(context.packager.info.projectDir, 'package.json'))('node-abi');
  let electronAbi;
  try {
    electronAbi = Number(nodeAbi.getAbi(electronVersion, 'electron'));
  } catch (error) {
    throw new Error(
      `Cannot tell which native ABI Electron ${electronVersion} loads (${error.message}): update node-abi (npm update node-abi), then package again.`,
    );
  }
  /** "Node 20" for 115: the usual wrong build is Node's, left in place by npm test. */
  const abiOwner = (abi) => {
    const node = nodeAbi.allTargets.find((target) => target.runtime === 'node' && Number(target.abi) === abi);
    return node && `Node ${node.target.split('.')[0]}`;
  };
  const { lines, wrong } = checkAddonAbis({
    appOutDir: context.appOutDir,
    electronVersion,
    electronAbi,
    abiOwner,
  });
  for (const line of lines) console.log(`  • native addon  ${line}`);
  if (wrong.length === 0) return;
  const message = wrong.map((addon) => addon.message).join('\n');
  if (process.env[allowWrongAbiVariable] === '1') {
    console.warn(`${allowWrongAbiVariable}=1: packaged anyway, and this app cannot run:\n${message}`);
    return;
  }
  throw new Error(message);
}
