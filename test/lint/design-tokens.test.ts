import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The design language is built as tokens (docs/design.md, issue #33): every gap, margin and
 * padding is a step of the 4 px spacing scale, and every colour a role of the theme, so a
 * component cannot drift from the scale or look wrong in the other theme. The tokens themselves
 * live in styles/global.css, the one place raw values are written.
 */
const root = join(import.meta.dirname, '../..');
const renderer = join(root, 'src/renderer/src');
const tokenFile = join(renderer, 'styles/global.css');

function* styledFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* styledFiles(path);
    else if (/\.(svelte|css)$/.test(entry.name) && path !== tokenFile) yield path;
  }
}

/** A file's CSS: a component's <style> blocks, or the whole of a stylesheet. */
function styleOf(path: string): string {
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.css')) return text;
  return [...text.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]).join('\n');
}

interface Declaration {
  file: string;
  property: string;
  value: string;
}

function declarations(): Declaration[] {
  const found: Declaration[] = [];
  for (const path of styledFiles(renderer)) {
    const css = styleOf(path).replace(/\/\*[\s\S]*?\*\//g, '');
    for (const match of css.matchAll(/(?:^|[;{\s])([a-z-]+)\s*:\s*([^;{}]+);/g)) {
      found.push({ file: relative(root, path), property: match[1]!, value: match[2]!.trim() });
    }
  }
  return found;
}

/** Writes a declaration as the finding a failing test lists. */
const said = ({ file, property, value }: Declaration): string => `${file}: ${property}: ${value}`;

/** A length written in numbers (12px, 0.5rem), not a token; 0 and 1px hairlines aside. */
const rawLength = /(?<![\w-])(?!0(?:px|rem|em)?\b)(?!1px\b)\d*\.?\d+(?:px|rem|em)\b/;
/** A colour written as a value instead of a theme's role. */
const rawColour = /#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|oklch|lab|lch)\(|\b(?:black|white)\b/i;

describe('the design tokens', () => {
  const all = declarations();

  it('finds the components’ styles it checks', () => {
    expect(all.length).toBeGreaterThan(500);
    expect(all.some((declaration) => declaration.file.endsWith('ui/button.svelte'))).toBe(true);
  });

  it('spaces everything on the 4 px scale: gaps, margins and paddings are --space tokens', () => {
    const spacing = all.filter(({ property }) =>
      /^(gap|row-gap|column-gap|margin|padding)(-|$)/.test(property),
    );
    expect(spacing.length).toBeGreaterThan(200);
    // A field's inner padding beside its icon adds the icon's size: a size token, not a number.
    expect(spacing.filter(({ value }) => rawLength.test(value)).map(said)).toEqual([]);
  });

  it('colours everything by its role in the theme, never by a value of one theme', () => {
    const colours = all.filter(({ property }) =>
      /^(color|background|background-color|border(-[a-z]+)?|outline(-color)?|box-shadow|fill|stroke|accent-color|--[a-z-]+)$/.test(
        property,
      ),
    );
    expect(colours.filter(({ value }) => rawColour.test(value)).map(said)).toEqual([]);
  });

  it('catches a raw length and a raw colour (the checks themselves)', () => {
    expect(rawLength.test('var(--space-2) 12px')).toBe(true);
    expect(rawLength.test('0.5rem')).toBe(true);
    expect(rawLength.test('0 var(--space-1)')).toBe(false);
    expect(rawLength.test('calc(var(--space-2) + var(--icon-size))')).toBe(false);
    expect(rawColour.test('0 4px 16px rgb(0 0 0 / 0.18)')).toBe(true);
    expect(rawColour.test('#fde68a')).toBe(true);
    expect(rawColour.test('var(--surface-2)')).toBe(false);
  });
});
