import type { Theme } from '../../../shared/settings';

const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');

/** Resolves "system" against the OS and follows it live when the OS switches. */
class ThemeState {
  systemDark = $state(darkQuery.matches);

  constructor() {
    darkQuery.addEventListener('change', (event) => {
      this.systemDark = event.matches;
    });
  }

  resolve(theme: Theme): 'light' | 'dark' {
    if (theme === 'system') return this.systemDark ? 'dark' : 'light';
    return theme;
  }
}

export const themeState = new ThemeState();
