import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { VerbatimError } from '../../shared/errors';
import type { Handlers } from '../../shared/ipc/contract';
import type { glossaryContract } from '../../shared/ipc/glossary-contract';
import { checkTranscriptionOptions } from '../../shared/transcription/request-options';
import { writeExportFile } from '../core/export/export-file';
import type { Glossaries } from '../core/glossary/glossaries';
import { proposeFixes } from '../core/glossary/glossary-fix-proposals';
import type { Library } from '../core/library/library';
import { requireAbsolute } from './absolute-path';

type GlossaryHandlers = Pick<Handlers, keyof typeof glossaryContract>;

/** A glossary file is a few hundred rows; anything this large is not one. */
const csvMaxBytes = 5 * 1024 * 1024;

/** A glossary CSV from disk, with what went wrong said in a journalist's words. */
export async function readGlossaryFile(path: string): Promise<string> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new VerbatimError('invalid_input', `${path} is not a file. Choose a CSV file.`);
    if (info.size > csvMaxBytes)
      throw new VerbatimError(
        'invalid_input',
        `${basename(path)} is too large for a glossary (${Math.round(info.size / 1024 / 1024)} MB). A glossary file is a CSV of a few thousand rows at most.`,
      );
    return await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof VerbatimError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new VerbatimError(
      'invalid_input',
      code === 'ENOENT'
        ? `There is no file ${path}. Check the name and the folder.`
        : `Verbatim could not read ${basename(path)}: ${error instanceof Error ? error.message : String(error)}`,
      { path, code },
    );
  }
}

export function createGlossaryHandlers(services: {
  glossaries: Glossaries;
  library: Library;
}): GlossaryHandlers {
  const { glossaries, library } = services;
  return {
    'glossaries.list': () => glossaries.list(),
    'glossaries.create': ({ name }) => glossaries.create(name),
    'glossaries.rename': ({ id, name }) => glossaries.rename(id, name),
    'glossaries.delete': ({ id }) => glossaries.delete(id),
    'glossaries.setDefaults': ({ id, usedByDefault, presets }) =>
      glossaries.setDefaults(id, {
        ...(usedByDefault === undefined ? {} : { usedByDefault }),
        ...(presets === undefined ? {} : { presets }),
      }),
    'glossaries.entries': ({ glossaryId, query }) =>
      glossaries.entries({
        ...(glossaryId === undefined ? {} : { glossaryId }),
        ...(query === undefined ? {} : { query }),
      }),
    'glossaries.addEntry': ({ glossaryId, entry }) => glossaries.add(glossaryId, entry),
    'glossaries.updateEntry': ({ id, ...change }) => glossaries.update(id, change),
    'glossaries.removeEntry': ({ id }) => glossaries.remove(id),
    'glossaries.importCsv': async ({ glossaryId, path }) =>
      glossaries.importCsv(glossaryId, await readGlossaryFile(requireAbsolute(path))),
    'glossaries.exportCsv': async ({ glossaryId, path, replace }) => {
      const target = requireAbsolute(path);
      const csv = await glossaries.exportCsv(glossaryId);
      await writeExportFile(target, new TextEncoder().encode(csv), { replace: replace ?? false });
      return { path: target, entries: (await glossaries.entries({ glossaryId })).length };
    },
    'glossaries.proposeFixes': ({ transcriptIds, glossaryIds }) =>
      proposeFixes(library, glossaries, transcriptIds, glossaryIds),
    // Options the form has not got right yet contribute as if empty: the form shows their problems.
    'glossaries.contribution': ({ glossaryIds, options }) => {
      const checked = checkTranscriptionOptions(options);
      return glossaries.contribution(glossaryIds, checked.ok ? checked.options : {});
    },
  };
}
