import { join } from 'node:path';
import { repairLibrary } from '../../core/library/library-repair';
import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { dataFolderOf } from '../environment';
import { UsageError } from '../usage-error';

/**
 * `library repair`: rebuilds a damaged library from what can still be read (its search indexes
 * and indexes are made again from its content), with no other Verbatim open on it.
 */
export const libraryCommand = defineCommand({
  name: 'library',
  usage: ['repair [--json]'],
  summary:
    'Repairs a damaged library: rebuilds its search index and indexes from its content, keeping the damaged file beside it.',
  options: {
    json: { type: 'boolean', description: 'prints what was done as JSON' },
  },
  takesWords: true,
  upgradesLibraryFirst: false,
  run({ values, positionals }, { io }) {
    const [action, ...rest] = positionals;
    if (action !== 'repair' || rest.length > 0)
      throw new UsageError(
        action ? `unknown library command "${positionals.join(' ')}"` : 'library needs a command: repair',
      );
    const path = join(dataFolderOf(io.env), 'library.sqlite');
    const outcome = repairLibrary(path);
    printResult(io, values.json, outcome, () =>
      outcome.repaired
        ? `Repaired the library ${path}: it was rebuilt from what could be read, and passes its check. The damaged file is kept as ${outcome.damagedCopy}.`
        : `The library ${path} passes its check; nothing needed repairing.`,
    );
    return Promise.resolve(0);
  },
});
