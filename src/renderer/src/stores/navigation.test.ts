import { describe, expect, it, vi } from 'vitest';

vi.stubGlobal('window', { location: { hash: '' }, addEventListener: () => undefined });
const { parseRoute, routeHash } = await import('./navigation.svelte');

describe('a shared story’s review in the address', () => {
  it('reads and writes #/stories/review/<reporter>/<story id>?quote=N', () => {
    expect(parseRoute('#/stories/review/ana/3?quote=2')).toEqual({
      view: 'stories',
      reviewKey: 'ana/3',
      quote: 2,
    });
    expect(parseRoute('#/stories/review/ana/3')).toEqual({ view: 'stories', reviewKey: 'ana/3' });
    expect(parseRoute('#/stories/review/ana')).toEqual({ view: 'stories' });
    expect(routeHash({ view: 'stories', reviewKey: 'ana/3', quote: 2 })).toBe(
      '#/stories/review/ana/3?quote=2',
    );
    expect(routeHash({ view: 'stories', reviewKey: 'o’neil/12' })).toBe('#/stories/review/o%E2%80%99neil/12');
    expect(parseRoute(routeHash({ view: 'stories', reviewKey: 'o’neil/12' }))).toEqual({
      view: 'stories',
      reviewKey: 'o’neil/12',
    });
    expect(routeHash({ view: 'stories' })).toBe('#/stories');
  });
});
