import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { speakerPrefix, timestamp } from '../job-lines';
import { UsageError } from '../usage-error';

/** `search <query>`: words across the library, each hit with its transcript, time and speaker. */
export const searchCommand = defineCommand({
  name: 'search',
  usage: ['<query> [--json] [--limit N]'],
  summary: 'Finds words across the library: each sentence found with its transcript, time and speaker.',
  options: {
    json: { type: 'boolean', description: 'prints the page of hits as JSON' },
    limit: { type: 'string', valueName: 'N', description: 'how many hits at most, 1 to 200 (20 unless set)' },
  },
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const { core } = openLibrary({ showProgress: !values.json });
    const query = positionals.join(' ');
    if (!query.trim()) throw new UsageError('search needs words to look for');
    const limit = values.limit === undefined ? 20 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200)
      throw new UsageError('--limit must be a whole number from 1 to 200');
    const page = await core.library.search(query, {}, { limit });
    printResult(io, values.json, page, () =>
      page.hits.length === 0
        ? 'Nothing found.'
        : page.hits
            .map(
              (hit) =>
                `${hit.transcriptTitle} [${timestamp(hit.startMs)}] ${speakerPrefix(hit.speakerName ?? hit.speaker)}${hit.snippet.map((p) => (p.match ? `**${p.text}**` : p.text)).join('')}`,
            )
            .join('\n'),
    );
    return 0;
  },
});
