import { mount, unmount, type Component } from 'svelte';
import type { Attachment } from 'svelte/attachments';

/** What an icon component of @lucide/svelte takes, as IconButton passes it. */
export type IconComponent = Component<{
  size?: number | string;
  'aria-hidden'?: boolean | 'true' | 'false';
  strokeWidth?: number;
}>;

/** One drawn SVG per icon, size and stroke, copied for every button that shows it. */
const drawn = new Map<IconComponent, Map<string, SVGElement>>();

/**
 * The icon's SVG as its component draws it, drawn once and then copied. A Lucide icon component
 * builds its SVG through spread attributes and a dynamic element per path: about 2 ms a button
 * on a busy laptop, paid again for every turn of a transcript the reader shows (its "correct
 * the speaker" button), which made opening a long transcript 60 ms slower (issue #33). A copy
 * of the same SVG (cloneNode) costs microseconds and draws the same pixels.
 */
export function iconSvg(icon: IconComponent, size: number, strokeWidth: number): SVGElement {
  let bySize = drawn.get(icon);
  if (!bySize) {
    bySize = new Map();
    drawn.set(icon, bySize);
  }
  const key = `${size}/${strokeWidth}`;
  let svg = bySize.get(key);
  if (!svg) {
    const target = document.createElement('div');
    const instance = mount(icon, { target, props: { size, strokeWidth, 'aria-hidden': 'true' } });
    const rendered = target.querySelector('svg');
    if (!rendered) throw new Error('An icon component drew no SVG.');
    svg = rendered.cloneNode(true) as SVGElement;
    void unmount(instance);
    bySize.set(key, svg);
  }
  return svg.cloneNode(true) as SVGElement;
}

/** Puts a copy of the icon's SVG first in the element; a new icon replaces it. */
export function iconStamp(icon: IconComponent, size: number, strokeWidth: number): Attachment<HTMLElement> {
  return (element) => {
    const svg = iconSvg(icon, size, strokeWidth);
    element.prepend(svg);
    return () => svg.remove();
  };
}
