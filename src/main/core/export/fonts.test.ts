import { describe, expect, it } from 'vitest';
import { findCjkFonts, hasCjk, splitByScript, type FontProbe } from './fonts';

function probe(platform: NodeJS.Platform, files: string[], fcMatch: Record<string, string> = {}): FontProbe {
  return {
    platform,
    env: { WINDIR: 'D:\\Win' },
    exists: (path) => files.includes(path),
    fcMatch: (pattern) => fcMatch[pattern],
  };
}

describe('findCjkFonts', () => {
  it("uses Debian's fonts-noto-cjk collection with the Simplified Chinese faces", () => {
    const dir = '/usr/share/fonts/opentype/noto';
    expect(
      findCjkFonts(probe('linux', [`${dir}/NotoSansCJK-Regular.ttc`, `${dir}/NotoSansCJK-Bold.ttc`])),
    ).toEqual({
      regular: { path: `${dir}/NotoSansCJK-Regular.ttc`, family: 'NotoSansCJKsc-Regular' },
      bold: { path: `${dir}/NotoSansCJK-Bold.ttc`, family: 'NotoSansCJKsc-Bold' },
    });
  });

  it('falls back to the regular face when there is no bold one', () => {
    const found = findCjkFonts(probe('linux', ['/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc']));
    expect(found?.bold).toEqual(found?.regular);
  });

  it('asks fontconfig otherwise, trusting only a face that covers Chinese', () => {
    const file = '/usr/share/fonts/wqy/wqy-zenhei.ttc';
    const covering = probe('linux', [file], {
      ':lang=zh-cn': `${file}\tWenQuanYiZenHei\taa|en|ja|zh-cn|zh-tw`,
    });
    expect(findCjkFonts(covering)).toEqual({
      regular: { path: file, family: 'WenQuanYiZenHei' },
      bold: { path: file, family: 'WenQuanYiZenHei' },
    });
    // fc-match always answers with something, here DejaVu, which has no Chinese.
    const dejavu = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
    const notCovering = probe('linux', [dejavu], { ':lang=zh-cn': `${dejavu}\tDejaVuSans\taa|en|el|ru` });
    expect(findCjkFonts(notCovering)).toBeNull();
    const single = '/opt/fonts/SourceHanSansSC-Regular.otf';
    expect(
      findCjkFonts(
        probe('freebsd', [single], { ':lang=zh-cn': `${single}\tSourceHanSansSC-Regular\tzh-cn` }),
      ),
    ).toEqual({ regular: { path: single }, bold: { path: single } });
  });

  it('knows where macOS and Windows keep theirs, and needs no fontconfig there', () => {
    expect(findCjkFonts(probe('darwin', ['/System/Library/Fonts/STHeiti Light.ttc']))?.regular).toEqual({
      path: '/System/Library/Fonts/STHeiti Light.ttc',
      family: 'STHeitiSC-Light',
    });
    expect(findCjkFonts(probe('win32', ['D:\\Win\\Fonts\\msyh.ttc', 'D:\\Win\\Fonts\\msyhbd.ttc']))).toEqual({
      regular: { path: 'D:\\Win\\Fonts\\msyh.ttc', family: 'MicrosoftYaHei' },
      bold: { path: 'D:\\Win\\Fonts\\msyhbd.ttc', family: 'MicrosoftYaHei-Bold' },
    });
    expect(findCjkFonts(probe('win32', [], { ':lang=zh-cn': 'x.ttf\tX\tzh-cn' }))).toBeNull();
    expect(findCjkFonts(probe('linux', []))).toBeNull();
  });
});

describe('splitByScript', () => {
  it('separates CJK runs from the rest, losing nothing', () => {
    const text = 'Mayor 王小明 said: 我们明天投票。Then «left».';
    const runs = splitByScript(text);
    expect(runs).toEqual([
      { text: 'Mayor ', cjk: false },
      { text: '王小明', cjk: true },
      { text: ' said: ', cjk: false },
      { text: '我们明天投票。', cjk: true },
      { text: 'Then «left».', cjk: false },
    ]);
    expect(runs.map((r) => r.text).join('')).toBe(text);
    expect(hasCjk('こんにちは')).toBe(true);
    expect(hasCjk('안녕하세요')).toBe(true);
    expect(hasCjk('Καλημέρα مرحبا')).toBe(false);
  });
});
