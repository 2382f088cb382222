import { mount, unmount, type Component } from 'svelte';
import type { Attachment } from 'svelte/attachments';

// A type, not an interface: lucide's props are a Record, which an interface cannot be given as.
export type IconProps = {
  size?: number | string;
  'aria-hidden'?: boolean | 'true' | 'false';
  strokeWidth?: number;
};
export type IconComponent = Component<IconProps>;

/** Each icon as drawn once, per size and stroke: the SVG a lucide component makes never changes. */
const drawn = new Map<IconComponent, Map<string, Element>>();

/**
 * Puts a copy of the icon in the element. A lucide component costs a dozen props and deriveds
 * each time it mounts, and a list of quotes or transcripts mounts three per row at every
 * keystroke or scroll: drawn once and cloned, the same SVG costs a node copy (issue #34: the
 * icon buttons were four fifths of mounting a row of the Quotes list).
 */
export function iconCopy(icon: IconComponent, props: IconProps): Attachment<HTMLElement> {
  return (element) => {
    const copy = drawing(icon, props).cloneNode(true) as Element;
    element.append(copy);
    return () => copy.remove();
  };
}

function drawing(icon: IconComponent, props: IconProps): Element {
  const key = JSON.stringify(props);
  let sizes = drawn.get(icon);
  if (!sizes) drawn.set(icon, (sizes = new Map<string, Element>()));
  let svg = sizes.get(key);
  if (!svg) {
    const target = document.createElement('span');
    const instance = mount(icon, { target, props });
    const first = target.firstElementChild;
    if (!first) throw new Error('An icon drew nothing.');
    svg = first.cloneNode(true) as Element;
    void unmount(instance);
    sizes.set(key, svg);
  }
  return svg;
}
