export const views = [
  { id: 'library', label: 'Library', shortcut: '1' },
  { id: 'new', label: 'New transcription', shortcut: '2' },
  { id: 'catalog', label: 'Catalog', shortcut: '3' },
  { id: 'assistant', label: 'Assistant', shortcut: '4' },
  { id: 'settings', label: 'Settings', shortcut: '5' },
] as const;

export type ViewId = (typeof views)[number]['id'];

function viewFromHash(hash: string): ViewId {
  const id = hash.replace(/^#\/?/, '');
  return views.find((view) => view.id === id)?.id ?? 'library';
}

/** The current view lives in the URL hash so a reload comes back to the same place. */
class Navigation {
  current = $state<ViewId>(viewFromHash(window.location.hash));

  constructor() {
    window.addEventListener('hashchange', () => {
      this.current = viewFromHash(window.location.hash);
    });
  }

  go(id: ViewId): void {
    if (window.location.hash !== `#/${id}`) window.location.hash = `#/${id}`;
    this.current = id;
  }
}

export const navigation = new Navigation();
