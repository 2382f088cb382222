import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * DejaVu Sans covers Latin, Greek, Cyrillic, Arabic and Hebrew, so PDFs of non-Latin
 * transcripts are readable without relying on fonts installed on the user's machine.
 * It does not cover Chinese, Japanese or Korean: those come from the system's CJK font below.
 */
export interface PdfFonts {
  regular: string;
  bold: string;
}

let cached: PdfFonts | undefined;

/** Paths to the DejaVu TTFs shipped by the `dejavu-fonts-ttf` package. */
export function dejaVuFonts(): PdfFonts {
  if (cached) return cached;
  // Resolve through the package rather than a relative path so it works from source,
  // from the bundled main process and from tests alike.
  const require = createRequire(import.meta.url);
  const dir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  cached = { regular: join(dir, 'DejaVuSans.ttf'), bold: join(dir, 'DejaVuSans-Bold.ttf') };
  return cached;
}

/** One face of a font file; `family` names the face inside a collection (.ttc) for pdfkit. */
export interface FontFace {
  path: string;
  family?: string | undefined;
}

export interface CjkFonts {
  regular: FontFace;
  bold: FontFace;
}

/** What the lookup may ask of the machine, injectable so every platform's branch is testable. */
export interface FontProbe {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  exists(path: string): boolean;
  /** fontconfig's best face for a pattern as "file\tpostscript name\tlanguages", if fc-match exists. */
  fcMatch(pattern: string): string | undefined;
}

/**
 * Chinese, Japanese and Korean glyphs come from the operating system's own CJK font (tens of
 * megabytes, so not shipped with Verbatim); pdfkit embeds only the glyphs a PDF uses. Known
 * places per OS come first, then fontconfig on Linux and other Unixes.
 */
function knownCjkFonts(probe: FontProbe): CjkFonts[] {
  if (probe.platform === 'darwin') {
    const dir = '/System/Library/Fonts';
    return [
      {
        regular: { path: `${dir}/PingFang.ttc`, family: 'PingFangSC-Regular' },
        bold: { path: `${dir}/PingFang.ttc`, family: 'PingFangSC-Semibold' },
      },
      {
        regular: { path: `${dir}/Hiragino Sans GB.ttc`, family: 'HiraginoSansGB-W3' },
        bold: { path: `${dir}/Hiragino Sans GB.ttc`, family: 'HiraginoSansGB-W6' },
      },
      {
        regular: { path: `${dir}/STHeiti Light.ttc`, family: 'STHeitiSC-Light' },
        bold: { path: `${dir}/STHeiti Medium.ttc`, family: 'STHeitiSC-Medium' },
      },
    ];
  }
  if (probe.platform === 'win32') {
    const dir = `${probe.env.WINDIR ?? 'C:\\Windows'}\\Fonts`;
    return [
      {
        regular: { path: `${dir}\\msyh.ttc`, family: 'MicrosoftYaHei' },
        bold: { path: `${dir}\\msyhbd.ttc`, family: 'MicrosoftYaHei-Bold' },
      },
      {
        regular: { path: `${dir}\\simsun.ttc`, family: 'SimSun' },
        bold: { path: `${dir}\\simsun.ttc`, family: 'SimSun' },
      },
    ];
  }
  // Debian and Ubuntu (fonts-noto-cjk), then Fedora and Arch.
  return [
    '/usr/share/fonts/opentype/noto',
    '/usr/share/fonts/google-noto-cjk',
    '/usr/share/fonts/noto-cjk',
  ].map((dir) => ({
    regular: { path: `${dir}/NotoSansCJK-Regular.ttc`, family: 'NotoSansCJKsc-Regular' },
    bold: { path: `${dir}/NotoSansCJK-Bold.ttc`, family: 'NotoSansCJKsc-Bold' },
  }));
}

/** A face fontconfig offers, but only if it really covers Chinese: fc-match always answers something. */
function fontconfigFace(probe: FontProbe, pattern: string): FontFace | undefined {
  const answer = probe.fcMatch(pattern);
  if (!answer) return undefined;
  const [path, postscript, langs] = answer.split('\t');
  if (!path || !langs?.split('|').includes('zh-cn') || !probe.exists(path)) return undefined;
  // A collection needs the face's name; a single-face file must not get one.
  if (path.toLowerCase().endsWith('.ttc')) return postscript ? { path, family: postscript } : undefined;
  return { path };
}

/** The first CJK font found on this machine, or null: the PDF is then made without one. */
export function findCjkFonts(probe: FontProbe): CjkFonts | null {
  for (const fonts of knownCjkFonts(probe)) {
    if (probe.exists(fonts.regular.path)) {
      return { regular: fonts.regular, bold: probe.exists(fonts.bold.path) ? fonts.bold : fonts.regular };
    }
  }
  if (probe.platform === 'win32' || probe.platform === 'darwin') return null;
  const regular = fontconfigFace(probe, ':lang=zh-cn');
  if (!regular) return null;
  return { regular, bold: fontconfigFace(probe, ':lang=zh-cn:weight=bold') ?? regular };
}

/** The real machine: the file system, and fc-match when it is installed. */
export const systemFontProbe: FontProbe = {
  platform: process.platform,
  env: process.env,
  exists: (path) => existsSync(path),
  fcMatch: (pattern) => {
    const r = spawnSync('fc-match', ['-f', '%{file}\t%{postscriptname}\t%{lang}', pattern], {
      encoding: 'utf8',
      timeout: 5000,
    });
    return r.status === 0 && r.stdout ? r.stdout : undefined;
  },
};

let foundCjk: CjkFonts | undefined;

/**
 * The system's CJK font, remembered once found. A miss is not remembered, so a reporter who
 * installs a font as the export's warning says can export again without restarting.
 */
export function systemCjkFonts(): CjkFonts | null {
  foundCjk ??= findCjkFonts(systemFontProbe) ?? undefined;
  return foundCjk ?? null;
}

/** Han, kana, hangul, and the CJK punctuation and full-width forms DejaVu lacks as well. */
const cjkChar =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303F\uFF00-\uFFEF]/u;
const cjkRun =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303F\uFF00-\uFFEF]+/gu;

export function hasCjk(text: string): boolean {
  return cjkChar.test(text);
}

/** Splits text into runs that are all CJK or all not, in order, so each run gets its own font. */
export function splitByScript(text: string): { text: string; cjk: boolean }[] {
  const out: { text: string; cjk: boolean }[] = [];
  let at = 0;
  for (const m of text.matchAll(cjkRun)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index), cjk: false });
    out.push({ text: m[0], cjk: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), cjk: false });
  return out;
}
