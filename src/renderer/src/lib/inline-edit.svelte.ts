import { tick } from 'svelte';
import type { Attachment } from 'svelte/attachments';

/**
 * Whether a mouse button, a finger or a pen is down on the page. Followed from the start, as a
 * press begins (pointerdown) before the focus it moves leaves an editor.
 */
let pressed = false;
let released: (() => void)[] = [];
if (typeof window !== 'undefined') {
  window.addEventListener('pointerdown', () => (pressed = true), true);
  const release = (): void => {
    pressed = false;
    const waiting = released;
    released = [];
    // A task later: the click this release makes is dispatched first, on what was pressed.
    setTimeout(() => waiting.forEach((resume) => resume()));
  };
  window.addEventListener('pointerup', release, true);
  window.addEventListener('pointercancel', release, true);
}

/**
 * Settles once the press in progress has been released and its click delivered; at once when
 * nothing is pressed (the editor was left with Tab or Enter).
 *
 * An editor left by a click elsewhere saves as the press begins, so what it sends goes before
 * what the click does; but it closes (its field giving way to text of another size) only after
 * this, or the button pressed would move, or be disabled, before the release, and the click be
 * lost (issue #31).
 */
export function pressReleased(): Promise<void> {
  if (!pressed) return Promise.resolve();
  return new Promise((resume) => released.push(resume));
}

/** Whether a press is in progress: the focus that moved now was moved by it. */
export function pressInProgress(): boolean {
  return pressed;
}

/**
 * Calls `save` when the focus leaves the element for somewhere outside it (a click elsewhere,
 * Tab), never for a move within it (to its own Save or Cancel button). Every in-place editor
 * saves this way, as a word processor does: what was typed is never dropped by a click.
 */
export function savesOnLeaving(save: () => void): Attachment<HTMLElement> {
  return (element) => {
    const onFocusOut = (event: FocusEvent): void => {
      const next = event.relatedTarget;
      if (next instanceof Node && element.contains(next)) return;
      save();
    };
    element.addEventListener('focusout', onFocusOut);
    return () => element.removeEventListener('focusout', onFocusOut);
  };
}

/**
 * A value edited in place (a title, a speaker's name): the component keeps its own markup and
 * labels; this keeps the draft, selects it on opening and saves only a real change.
 */
export class InlineEdit {
  editing = $state(false);
  draft = $state('');
  input: HTMLInputElement | undefined = $state();
  /** Saving and closing: a second way of leaving (the field's removal blurs it) saves nothing more. */
  private leaving = false;

  /** Opens the editor on the current value, selected so typing replaces it. */
  async start(current: string): Promise<void> {
    this.draft = current;
    this.editing = true;
    // The input exists only once the editing branch has rendered.
    await tick();
    this.input?.select();
  }

  /**
   * Closes the editor; `commit` runs only for a non-empty value that differs from `current`. It
   * is sent at once, and the editor closes once a press that left it is released (pressReleased).
   * Nothing happens when it is closed already (Escape, or a second way of leaving it).
   */
  async save(current: string | undefined, commit: (value: string) => Promise<unknown>): Promise<void> {
    if (!this.editing || this.leaving) return;
    this.leaving = true;
    const value = this.draft.trim();
    const committed = value && value !== current ? commit(value) : undefined;
    await pressReleased();
    this.editing = false;
    this.leaving = false;
    await committed;
  }

  cancel(): void {
    this.editing = false;
  }

  /** Escape cancels; it stops there so it does not also close the view around the editor. */
  onKeydown(event: KeyboardEvent): void {
    if (event.key === 'Escape') {
      event.stopPropagation();
      this.cancel();
    }
  }
}
