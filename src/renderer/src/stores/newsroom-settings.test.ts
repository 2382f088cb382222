import { beforeEach, describe, expect, it, vi } from 'vitest';
import { VerbatimError } from '../../../shared/errors';
import type { NewsroomSettings } from '../../../shared/ipc/newsroom-contract';

type SetInput = { address: string; password?: string | null };
type CheckInput = { address: string; password?: string };
const settings = vi.fn<() => Promise<NewsroomSettings>>();
const setSettings = vi.fn<(input: SetInput) => Promise<NewsroomSettings>>();
const check = vi.fn<(input: CheckInput) => Promise<{ ok: boolean; message: string }>>();
const write = vi.fn(() => Promise.resolve(undefined));
vi.mock('../lib/api', () => ({ api: { newsroom: { settings, setSettings, check }, log: { write } } }));

const { NewsroomSettingsStore } = await import('./newsroom-settings.svelte');

const address = 'postgres://ana@db.example.org:5432/verbatim';

beforeEach(() => {
  vi.clearAllMocks();
  settings.mockResolvedValue({ address, passwordSet: true });
  setSettings.mockImplementation((input) =>
    Promise.resolve({ address: input.address, passwordSet: input.password !== null }),
  );
});

describe('the Newsroom section of Settings', () => {
  it('shows the stored address and only whether a password is set', async () => {
    const store = new NewsroomSettingsStore();
    await store.load();
    expect({ address: store.address, passwordSet: store.passwordSet, password: store.password }).toEqual({
      address,
      passwordSet: true,
      password: '',
    });
  });

  it('sends the password byte for byte once, then forgets it; an empty field keeps the stored one', async () => {
    const store = new NewsroomSettingsStore();
    await store.load();
    store.password = '  spaced pw ';
    await store.save();
    expect(setSettings).toHaveBeenLastCalledWith({ address, password: '  spaced pw ' });
    expect(store.password).toBe('');
    expect(store.saved).toBe('Saved.');
    await store.save();
    expect(setSettings).toHaveBeenLastCalledWith({ address });
    await store.forgetPassword();
    expect(setSettings).toHaveBeenLastCalledWith({ address, password: null });
    expect(store.passwordSet).toBe(false);
  });

  it('shows a refused address under its field, and keeps what was typed', async () => {
    const store = new NewsroomSettingsStore();
    setSettings.mockRejectedValueOnce(
      new VerbatimError('invalid_input', 'The newsroom address must start with postgres://: write it as x.'),
    );
    store.address = 'http://db';
    store.password = 'pw';
    await store.save();
    expect(store.addressProblem).toBe('The newsroom address must start with postgres://: write it as x.');
    expect(store.address).toBe('http://db');
    expect(store.password).toBe('pw');
    expect(store.saved).toBe('');
  });

  it('checks the typed address with the typed password, busy until main answers', async () => {
    const store = new NewsroomSettingsStore();
    await store.load();
    let answer: (value: { ok: boolean; message: string }) => void = () => {};
    check.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    store.password = 'typed';
    const checking = store.check();
    expect(store.checking).toBe(true);
    answer({ ok: true, message: 'Connected as ana: City (reporter).' });
    await checking;
    expect(check).toHaveBeenCalledWith({ address, password: 'typed' });
    expect(store.checking).toBe(false);
    expect(store.answer).toEqual({ ok: true, message: 'Connected as ana: City (reporter).' });
    store.password = '';
    check.mockResolvedValueOnce({ ok: false, message: 'No newsroom password is set yet.' });
    await store.check();
    expect(check).toHaveBeenLastCalledWith({ address });
  });
});
