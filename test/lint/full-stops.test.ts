import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { withoutFullStop } from '../../src/shared/errors';

/**
 * One full stop at the end of a message, never two (issue #31). Verbatim's messages are written
 * where they are raised, in every module, so the whole source is their catalogue: no text may
 * hold two full stops in a row (an ellipsis is three), and a message from elsewhere (an error's
 * or an event's, which ends with its own full stop) put before a full stop goes through
 * withoutFullStop.
 */
const root = join(import.meta.dirname, '../..');

function* sourceFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|svelte)$/.test(entry.name) && !/\.(test|test-kit|d)\.ts$/.test(entry.name)) yield path;
  }
}

/** Two full stops in a row: not an ellipsis, nor a path's parent folder ("../"). */
const doubled = /(?<!\.)\.\.(?![./\\])/;
/** A full stop that ends a sentence (not a file's extension, ".wav"). */
const sentenceStop = /^\.(\s|$|["'”’)<])/;
/** A value that is another message: an error's or an event's, or a failure said elsewhere. */
const foreignMessage = /\.message\b|\bmessage\b|\bfailure\b/;
/** Messages known to end without a full stop, so one after them is the only one. */
const endWithoutFullStop = new Map([
  // csv-parse's own words: "Invalid Record Length: expect 2, got 3 on line 2".
  ['src/main/core/glossary/glossary-csv.ts', 'error instanceof Error ? error.message : String(error)'],
]);

interface Finding {
  file: string;
  text: string;
}

/** The script of a Svelte component, and its markup (without styles). */
function svelteParts(source: string): { script: string; markup: string } {
  const script = [...source.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
  const markup = source.replace(/<script[^>]*>[\s\S]*?<\/script>|<style[^>]*>[\s\S]*?<\/style>/g, '');
  return { script, markup };
}

function scan(): { doubledStops: Finding[]; unguarded: Finding[] } {
  const doubledStops: Finding[] = [];
  const unguarded: Finding[] = [];
  for (const path of sourceFiles(join(root, 'src'))) {
    const file = relative(root, path).split('\\').join('/');
    const source = readFileSync(path, 'utf8');
    const { script, markup } = path.endsWith('.svelte')
      ? svelteParts(source)
      : { script: source, markup: '' };
    const isGuarded = (expression: string): boolean =>
      /^withoutFullStop\(/.test(expression) || endWithoutFullStop.get(file) === expression;
    const tree = ts.createSourceFile(file, script, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
        if (node.text !== '..' && doubled.test(node.text)) doubledStops.push({ file, text: node.text });
      }
      if (ts.isTemplateSpan(node)) {
        const expression = node.expression.getText(tree);
        if (sentenceStop.test(node.literal.text) && foreignMessage.test(expression) && !isGuarded(expression))
          unguarded.push({ file, text: `\${${expression}}${node.literal.text.slice(0, 20)}` });
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
    for (const line of markup.split('\n')) {
      const text = line.replace(/\{[^{}]*\}/g, 'x');
      if (doubled.test(text)) doubledStops.push({ file, text: line.trim() });
      for (const [, expression] of line.matchAll(/\{([^{}]*)\}\.(?=\s|$|<)/g))
        if (foreignMessage.test(expression!) && !isGuarded(expression!.trim()))
          unguarded.push({ file, text: line.trim() });
    }
  }
  return { doubledStops, unguarded };
}

describe('full stops in messages', () => {
  const { doubledStops, unguarded } = scan();

  it('no text in the source has two full stops in a row', () => {
    expect(doubledStops).toEqual([]);
  });

  it('a message from elsewhere loses its own full stop before the one that follows it', () => {
    expect(unguarded).toEqual([]);
  });

  it('withoutFullStop drops one closing full stop and keeps an ellipsis', () => {
    expect(withoutFullStop('The connection to the voice assistant was lost.')).toBe(
      'The connection to the voice assistant was lost',
    );
    expect(withoutFullStop('EACCES: permission denied')).toBe('EACCES: permission denied');
    expect(withoutFullStop('Waiting...')).toBe('Waiting...');
    expect(withoutFullStop('Waiting…')).toBe('Waiting…');
  });

  it('finds what it looks for', () => {
    // The scan is only worth something if it fires: the patterns on the mistakes they are for.
    expect(doubled.test('Choose another folder.. Then save')).toBe(true);
    expect(doubled.test('Loading...')).toBe(false);
    expect(doubled.test('../core/export')).toBe(false);
    expect(sentenceStop.test('. Nothing was written')).toBe(true);
    expect(sentenceStop.test('.wav')).toBe(false);
    expect(foreignMessage.test('inCommandLineTerms(conversation.failure)')).toBe(true);
    expect(foreignMessage.test('(error as Error).message')).toBe(true);
  });
});
