import { join } from 'node:path';
import { VerbatimError } from '../../shared/errors';
import type { Handlers } from '../../shared/ipc/contract';
import type { glossaryContract } from '../../shared/ipc/glossary-contract';
import { checkTranscriptionOptions } from '../../shared/transcription/request-options';
import { writeExportFile } from '../core/export/export-file';
import { defaultExportFolder } from '../core/export/export-batch';
import type { ExportPlatform } from '../core/export/export-platform';
import type { Glossaries } from '../core/glossary/glossaries';
import { readGlossaryFile } from '../core/glossary/glossary-file';
import { proposeFixes } from '../core/glossary/glossary-fix-proposals';
import type { Library } from '../core/library/library';
import { requireAbsolute } from './absolute-path';

/** The newsroom's glossary methods are served by newsroom-glossary-handlers.ts. */
type GlossaryHandlers = Omit<
  Pick<Handlers, keyof typeof glossaryContract>,
  | 'glossaries.share'
  | 'glossaries.pull'
  | 'glossaries.propose'
  | 'glossaries.proposals'
  | 'glossaries.decideProposal'
>;

export function createGlossaryHandlers(services: {
  glossaries: Glossaries;
  library: Library;
  exportPlatform?: ExportPlatform | undefined;
}): GlossaryHandlers {
  const { glossaries, library } = services;
  const folder = (): string => services.exportPlatform?.defaultFolder ?? defaultExportFolder();
  return {
    'glossaries.chooseFile': async ({ purpose, glossaryId }) => {
      const dialogs = services.exportPlatform?.dialogs;
      if (!dialogs)
        throw new VerbatimError(
          'invalid_input',
          'This window has no file dialog: type the file’s path instead.',
        );
      const filters = [{ name: 'CSV (spreadsheet)', extensions: ['csv'] }];
      if (purpose === 'import')
        return {
          path: await dialogs.openFile({ title: 'Import a glossary', defaultPath: folder(), filters }),
        };
      const glossary = (await glossaries.list()).find((known) => known.id === glossaryId);
      const fileName = `${(glossary?.name ?? 'Glossary').replace(/[\\/:*?"<>|]/g, '-')}.csv`;
      return {
        path: await dialogs.saveFile({
          title: 'Export the glossary',
          defaultPath: join(folder(), fileName),
          filters,
        }),
      };
    },
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
    'glossaries.addEntry': ({ glossaryId, entry, merge }) => glossaries.add(glossaryId, entry, { merge }),
    'glossaries.sameSpelling': ({ term }) => glossaries.sameSpelling(term),
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
    'glossaries.markUsed': async ({ entryIds }) => {
      await glossaries.touch(entryIds);
      return {};
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
