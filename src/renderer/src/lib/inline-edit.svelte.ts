import { tick } from 'svelte';

/**
 * A value edited in place (a title, a speaker's name): the component keeps its own markup and
 * labels; this keeps the draft, selects it on opening and saves only a real change.
 */
export class InlineEdit {
  editing = $state(false);
  draft = $state('');
  input: HTMLInputElement | undefined = $state();

  /** Opens the editor on the current value, selected so typing replaces it. */
  async start(current: string): Promise<void> {
    this.draft = current;
    this.editing = true;
    // The input exists only once the editing branch has rendered.
    await tick();
    this.input?.select();
  }

  /** Closes the editor; `commit` runs only for a non-empty value that differs from `current`. */
  async save(current: string | undefined, commit: (value: string) => Promise<unknown>): Promise<void> {
    const value = this.draft.trim();
    this.editing = false;
    if (value && value !== current) await commit(value);
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
