/**
 * The views, in the sidebar's order; Ctrl+1 … Ctrl+9 open them top to bottom (shared/keymap.ts
 * viewCommands), so a shortcut is read off the sidebar rather than learnt (issue #33).
 */
export const views = [
  { id: 'library', label: 'Library' },
  { id: 'new', label: 'New transcription' },
  { id: 'record', label: 'Record' },
  { id: 'catalog', label: 'Catalog' },
  { id: 'assistant', label: 'Assistant' },
  { id: 'quotes', label: 'Quotes' },
  { id: 'stories', label: 'Stories' },
  { id: 'glossary', label: 'Glossary' },
  { id: 'settings', label: 'Settings' },
] as const;

export type ViewId = (typeof views)[number]['id'] | 'transcript' | 'newsroom-transcript';
