import type { Attachment } from 'svelte/attachments';
import { formatChord, platformOf } from '../../lib/chord-text';

const platform = platformOf(typeof navigator === 'undefined' ? '' : navigator.userAgent);

/** A chord as stored ("Mod+Shift+Z") as this machine writes it ("Ctrl+Shift+Z", "⇧⌘Z"). */
export function shownShortcut(chord: string): string {
  return formatChord(chord, platform);
}

/** A chord as stored, in the form aria-keyshortcuts takes ("Control+Shift+Z", "Meta+F"). */
export function ariaShortcut(chord: string): string {
  return chord.replace(/^Mod\+/, platform === 'mac' ? 'Meta+' : 'Control+').replace(/\bCtrl\+/, 'Control+');
}

/** The tooltip on screen: one at a time, as in every desktop toolkit. */
let shownTooltip: { element: HTMLElement; hide: () => void } | undefined;

/** Under a pointer the tooltip waits (a pass over a toolbar shows nothing); on keyboard focus it does not. */
const hoverDelayMs = 450;

/**
 * A tooltip for a control whose name is not written on it (an icon, a collapsed sidebar's
 * entry): the name and its shortcut, on hover and on keyboard focus, gone on Escape. The control
 * keeps its own accessible name; the tooltip repeats it for the eye, so it is hidden from
 * assistive technology, which hears the shortcut from aria-keyshortcuts.
 */
export function tooltip(label: string, shortcut?: string): Attachment<HTMLElement> {
  return (element) => {
    const shortcutText = shortcut === undefined ? undefined : shownShortcut(shortcut);
    if (shortcut !== undefined) element.setAttribute('aria-keyshortcuts', ariaShortcut(shortcut));
    let tip: HTMLElement | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const show = (): void => {
      hide();
      shownTooltip?.hide();
      const box = element.getBoundingClientRect();
      tip = document.createElement('span');
      tip.className = 'tooltip';
      tip.setAttribute('role', 'tooltip');
      tip.setAttribute('aria-hidden', 'true');
      tip.append(label);
      if (shortcutText) {
        const keys = document.createElement('kbd');
        keys.textContent = shortcutText;
        tip.append(keys);
      }
      document.body.append(tip);
      const tipBox = tip.getBoundingClientRect();
      // Beside an element at the window's left edge (the sidebar), else below it, else above it
      // (a transport bar at the bottom); never past the window's edge.
      let left: number;
      let top: number;
      if (box.left < 8 && box.right + tipBox.width + 8 < window.innerWidth) {
        left = box.right + 8;
        top = box.top + (box.height - tipBox.height) / 2;
      } else {
        left = box.left + (box.width - tipBox.width) / 2;
        top =
          box.bottom + 6 + tipBox.height < window.innerHeight ? box.bottom + 6 : box.top - 6 - tipBox.height;
      }
      tip.style.left = `${Math.max(4, Math.min(left, window.innerWidth - tipBox.width - 4))}px`;
      tip.style.top = `${Math.max(4, top)}px`;
      shownTooltip = { element, hide };
    };
    const hide = (): void => {
      clearTimeout(timer);
      tip?.remove();
      tip = undefined;
      if (shownTooltip?.element === element) shownTooltip = undefined;
    };
    const onPointerEnter = (): void => {
      clearTimeout(timer);
      timer = setTimeout(show, hoverDelayMs);
    };
    const onFocus = (): void => {
      if (element.matches(':focus-visible')) show();
    };
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key === 'Escape' && tip) hide();
    };

    element.addEventListener('pointerenter', onPointerEnter);
    element.addEventListener('pointerleave', hide);
    element.addEventListener('pointerdown', hide);
    element.addEventListener('focus', onFocus);
    element.addEventListener('blur', hide);
    element.addEventListener('keydown', onKeyDown);
    return () => {
      hide();
      element.removeEventListener('pointerenter', onPointerEnter);
      element.removeEventListener('pointerleave', hide);
      element.removeEventListener('pointerdown', hide);
      element.removeEventListener('focus', onFocus);
      element.removeEventListener('blur', hide);
      element.removeEventListener('keydown', onKeyDown);
    };
  };
}
