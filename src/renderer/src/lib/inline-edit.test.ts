import { describe, expect, it, vi } from 'vitest';
import { InlineEdit } from './inline-edit.svelte';

describe('InlineEdit', () => {
  it('opens on the current value', async () => {
    const edit = new InlineEdit();
    await edit.start('Speaker A');
    expect(edit.editing).toBe(true);
    expect(edit.draft).toBe('Speaker A');
  });

  it('saves a changed value, trimmed', async () => {
    const edit = new InlineEdit();
    const commit = vi.fn(() => Promise.resolve());
    await edit.start('Speaker A');
    edit.draft = '  Ada  ';
    await edit.save('Speaker A', commit);
    expect(edit.editing).toBe(false);
    expect(commit).toHaveBeenCalledWith('Ada');
  });

  it('does not save an empty or unchanged value', async () => {
    const edit = new InlineEdit();
    const commit = vi.fn(() => Promise.resolve());
    await edit.start('Ada');
    edit.draft = '   ';
    await edit.save('Ada', commit);
    await edit.start('Ada');
    edit.draft = ' Ada ';
    await edit.save('Ada', commit);
    expect(commit).not.toHaveBeenCalled();
    expect(edit.editing).toBe(false);
  });

  it('saves once however often it is left (the field blurs again as it is removed), and not after Escape', async () => {
    const edit = new InlineEdit();
    const commit = vi.fn(() => Promise.resolve());
    await edit.start('Speaker A');
    edit.draft = 'Ada';
    await Promise.all([edit.save('Speaker A', commit), edit.save('Speaker A', commit)]);
    await edit.save('Speaker A', commit);
    expect(commit).toHaveBeenCalledTimes(1);
    await edit.start('Ada');
    edit.draft = 'Grace';
    edit.cancel();
    await edit.save('Ada', commit);
    expect(commit).toHaveBeenCalledTimes(1);
  });

  it('cancels on Escape and keeps the key from the view around it', async () => {
    const edit = new InlineEdit();
    await edit.start('Ada');
    const escape = { key: 'Escape', stopPropagation: vi.fn() } as unknown as KeyboardEvent;
    edit.onKeydown(escape);
    expect(edit.editing).toBe(false);
    expect(escape.stopPropagation).toHaveBeenCalled();
    const other = { key: 'a', stopPropagation: vi.fn() } as unknown as KeyboardEvent;
    await edit.start('Ada');
    edit.onKeydown(other);
    expect(edit.editing).toBe(true);
    expect(other.stopPropagation).not.toHaveBeenCalled();
  });
});
