/** The reader's side panel never gets narrower than a card reads well in, nor wider than this. */
export const panelWidthRange = { min: 280, max: 640, initial: 340 } as const;

/** A width the panel can take: whole pixels within the range, the initial width for anything unreadable. */
export function panelWidth(value: unknown): number {
  const width = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(width)) return panelWidthRange.initial;
  return Math.round(Math.min(panelWidthRange.max, Math.max(panelWidthRange.min, width)));
}

const storageKey = 'verbatim.reader.sidePanel';

/**
 * The reader's side panel (Analyses, Ask, Review, Highlights): its width and whether it is
 * collapsed, remembered in this window's localStorage. It is a preference of this screen, not of
 * the library, so it does not travel with the settings.
 */
class SidePanel {
  width = $state<number>(panelWidthRange.initial);
  collapsed = $state(false);

  constructor() {
    try {
      const saved = JSON.parse(localStorage.getItem(storageKey) ?? 'null') as {
        width?: unknown;
        collapsed?: unknown;
      } | null;
      if (saved) {
        this.width = panelWidth(saved.width);
        this.collapsed = saved.collapsed === true;
      }
    } catch {
      // A damaged entry is forgotten: the panel opens at its initial width.
      localStorage.removeItem(storageKey);
    }
  }

  resize(width: number): void {
    this.width = panelWidth(width);
    this.save();
  }

  setCollapsed(collapsed: boolean): void {
    this.collapsed = collapsed;
    this.save();
  }

  private save(): void {
    localStorage.setItem(storageKey, JSON.stringify({ width: this.width, collapsed: this.collapsed }));
  }
}

export const sidePanel = new SidePanel();
