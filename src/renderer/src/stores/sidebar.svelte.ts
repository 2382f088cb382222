/** Where the sidebar's state is kept between runs: a preference of this window, not of the library. */
const storageKey = 'verbatim.sidebar.collapsed';

/**
 * The sidebar shows the views' names, or collapses to their icons to give a laptop screen's width
 * to the work (issue #33). Ctrl+B toggles it, as in editors; the choice survives a restart.
 */
class Sidebar {
  collapsed = $state(readCollapsed());

  toggle(): void {
    this.collapsed = !this.collapsed;
    try {
      localStorage.setItem(storageKey, String(this.collapsed));
    } catch (error) {
      // Storage refused (a private window, a full disk): the toggle still works for this run.
      console.warn('The sidebar state could not be remembered.', error);
    }
  }
}

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(storageKey) === 'true';
  } catch {
    return false;
  }
}

export const sidebar = new Sidebar();
