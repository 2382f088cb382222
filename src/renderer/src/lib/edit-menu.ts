import type { EditMenuAction } from '../../../shared/ipc/corrections-contract';

/** What Edit → Undo and Redo drive while a transcript is open (its corrections' history). */
export interface EditHistory {
  undo(): unknown;
  redo(): unknown;
}

let history: EditHistory | undefined;

/** The open reader registers its history; the returned function unregisters it. */
export function provideEditHistory(provided: EditHistory): () => void {
  history = provided;
  return () => {
    if (history === provided) history = undefined;
  };
}

/** A text field of its own (find, tags, a name being typed): Undo there is the field's. */
function inOwnField(element: Element | null): boolean {
  if (!element) return false;
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName)) return true;
  return (element as HTMLElement).isContentEditable && !element.closest('[data-turn]');
}

/**
 * Edit → Undo or Redo from the desktop menu: the corrections' history when a transcript is open
 * and the focus is not in another field (the turn being retyped counts as the transcript: it is
 * stored first, then undone), else the focused field's native undo. Answers which it was.
 */
export function editMenuCommand(action: EditMenuAction, doc: Document = document): 'history' | 'native' {
  if (history && !inOwnField(doc.activeElement)) {
    void history[action]();
    return 'history';
  }
  // Deprecated but still the one way to reach a field's own undo stack from script.
  doc.execCommand(action);
  return 'native';
}
