import { beforeEach, describe, expect, it, vi } from 'vitest';
import { VerbatimError } from '../../../shared/errors';
import type { NewsroomDesks, NewsroomPublication } from '../../../shared/ipc/newsroom-contract';

type PublishInput = { ids: string[]; desk: string; confidential: boolean; withAudio: boolean };
type Published = { publications: NewsroomPublication[]; refused: { id: string; message: string }[] };
const publish = vi.fn<(input: PublishInput) => Promise<Published>>();
const unpublish = vi.fn<(input: { id: string }) => Promise<NewsroomPublication>>();
const desks = vi.fn<() => Promise<NewsroomDesks>>();
const publications = vi.fn<(input: { ids: string[] }) => Promise<NewsroomPublication[]>>();
const listeners: ((publication: NewsroomPublication) => void)[] = [];
const on = vi.fn((_event: string, listener: (publication: NewsroomPublication) => void) => {
  listeners.push(listener);
  return () => listeners.splice(listeners.indexOf(listener), 1);
});
const write = vi.fn(() => Promise.resolve(undefined));
vi.mock('../lib/api', () => ({
  api: { newsroom: { publish, unpublish, desks, publications }, on, log: { write } },
}));

const { NewsroomPublications, PublishDialogState, publicationStatus } =
  await import('./newsroom-publishing.svelte');

function publication(overrides: Partial<NewsroomPublication> = {}): NewsroomPublication {
  return {
    transcriptId: 'harbour',
    desk: 'City',
    confidential: false,
    withAudio: false,
    revisionRequested: 1,
    revisionPublished: null,
    state: 'waiting',
    error: null,
    audioNote: null,
    updatedAt: 1000,
    ...overrides,
  };
}

beforeEach(() => {
  vi.clearAllMocks();
  listeners.splice(0);
  publish.mockImplementation(({ ids, desk, confidential, withAudio }) =>
    Promise.resolve({
      publications: ids.map((transcriptId) => publication({ transcriptId, desk, confidential, withAudio })),
      refused: [],
    }),
  );
});

describe('a publication as the reporter reads it', () => {
  it('says nothing for a transcript that is local only or taken out, and each state in words', () => {
    expect(publicationStatus(undefined)).toBeUndefined();
    expect(publicationStatus(publication({ state: 'unpublished' }))).toBeUndefined();
    expect(publicationStatus(publication())).toEqual({ tone: 'waiting', text: 'Waiting to publish' });
    expect(publicationStatus(publication({ state: 'published', revisionPublished: 3 }))).toEqual({
      tone: 'published',
      text: 'Published · rev 3',
    });
    expect(
      publicationStatus(publication({ state: 'failed', error: 'You are not on the desk Politics.' })),
    ).toEqual({ tone: 'failed', text: 'Failed: You are not on the desk Politics' });
  });

  it('carries the note on what of the audio did not go while it waits and once published, not after', () => {
    const audioNote = '"Harbour" was published without its recording: it is no longer at /tmp/harbour.wav.';
    expect(publicationStatus(publication({ audioNote }))).toEqual({
      tone: 'waiting',
      text: 'Waiting to publish',
      audioNote,
    });
    expect(publicationStatus(publication({ state: 'published', revisionPublished: 2, audioNote }))).toEqual({
      tone: 'published',
      text: 'Published · rev 2',
      audioNote,
    });
    expect(publicationStatus(publication({ state: 'unpublishing', audioNote }))?.audioNote).toBeUndefined();
    expect(
      publicationStatus(publication({ state: 'failed', error: 'Refused.', audioNote }))?.audioNote,
    ).toBeUndefined();
  });
});

describe('the publication states', () => {
  it('loads the states of the transcripts shown and follows every change main reports', async () => {
    const store = new NewsroomPublications();
    publications.mockResolvedValue([publication({ state: 'published', revisionPublished: 1 })]);
    await store.load(['harbour', 'council']);
    expect(publications).toHaveBeenCalledWith({ ids: ['harbour', 'council'] });
    expect(store.status('harbour')?.text).toBe('Published · rev 1');
    expect(store.status('council')).toBeUndefined();
    const stop = store.listen();
    listeners.forEach((listener) =>
      listener(publication({ transcriptId: 'council', state: 'failed', error: 'No desk.', updatedAt: 2000 })),
    );
    expect(store.status('council')?.text).toBe('Failed: No desk');
    stop();
    expect(listeners).toEqual([]);
  });

  it('keeps the newer state when an older one arrives after it', async () => {
    const store = new NewsroomPublications();
    store.listen();
    listeners.forEach((listener) =>
      listener(publication({ state: 'published', revisionPublished: 1, updatedAt: 5000 })),
    );
    publish.mockResolvedValueOnce({ publications: [publication({ updatedAt: 4000 })], refused: [] });
    expect(await store.publish(['harbour'], 'City', false)).toBeUndefined();
    expect(store.status('harbour')?.text).toBe('Published · rev 1');
  });

  it('retries a failed publication to the desk it went to, and says why a transcript was refused', async () => {
    const store = new NewsroomPublications();
    publications.mockResolvedValue([
      publication({ state: 'failed', desk: 'Politics', confidential: true, error: 'Refused.' }),
    ]);
    await store.load(['harbour']);
    await store.retry('harbour');
    expect(publish).toHaveBeenCalledWith({
      ids: ['harbour'],
      desk: 'Politics',
      confidential: true,
      withAudio: false,
    });
    expect(store.status('harbour')?.text).toBe('Waiting to publish');
    publish.mockResolvedValueOnce({
      publications: [],
      refused: [{ id: 'harbour', message: '"Harbour" is not finished yet, so there is nothing to publish.' }],
    });
    await store.retry('harbour');
    expect(store.problem?.message).toBe('"Harbour" is not finished yet, so there is nothing to publish.');
  });

  it('unpublishes, showing the state main answers, or why not', async () => {
    const store = new NewsroomPublications();
    unpublish.mockResolvedValueOnce(publication({ state: 'unpublishing', revisionPublished: 2 }));
    await store.unpublish('harbour');
    expect(store.status('harbour')?.text).toBe('Waiting to unpublish');
    unpublish.mockRejectedValueOnce(new VerbatimError('not_found', 'This transcript was never published.'));
    await store.unpublish('harbour');
    expect(store.problem?.message).toBe('This transcript was never published.');
  });
});

describe('the Publish to newsroom dialog', () => {
  const online: NewsroomDesks = {
    user: 'ana',
    desks: [
      { desk: 'City', role: 'reporter' },
      { desk: 'Politics', role: 'editor' },
    ],
    message: null,
    lastDesk: 'Politics',
  };

  it('offers the reporter’s desks, the desk used last chosen, and publishes to the one chosen', async () => {
    desks.mockResolvedValue(online);
    const store = new NewsroomPublications();
    const dialog = new PublishDialogState(['harbour', 'council'], store);
    await dialog.load();
    expect({ typed: dialog.typed, desk: dialog.desk, loading: dialog.loading }).toEqual({
      typed: false,
      desk: 'Politics',
      loading: false,
    });
    dialog.desk = 'City';
    dialog.confidential = true;
    expect(await dialog.publish()).toBe(true);
    expect(publish).toHaveBeenCalledWith({
      ids: ['harbour', 'council'],
      desk: 'City',
      confidential: true,
      withAudio: false,
    });
    expect(store.status('council')?.text).toBe('Waiting to publish');
  });

  it('republishing one transcript starts from its desk, confidentiality and recording, and sends them', async () => {
    desks.mockResolvedValue(online);
    const store = new NewsroomPublications();
    publications.mockResolvedValue([
      publication({ desk: 'City', confidential: true, withAudio: true, state: 'published' }),
    ]);
    await store.load(['harbour']);
    const dialog = new PublishDialogState(['harbour'], store);
    await dialog.load();
    expect({ desk: dialog.desk, confidential: dialog.confidential, withAudio: dialog.withAudio }).toEqual({
      desk: 'City',
      confidential: true,
      withAudio: true,
    });
    expect(await dialog.publish()).toBe(true);
    expect(publish).toHaveBeenCalledWith({
      ids: ['harbour'],
      desk: 'City',
      confidential: true,
      withAudio: true,
    });
  });

  it('offline, lets the reporter type the desk, offered the one used last, and says why', async () => {
    const message =
      'The newsroom cannot be reached now (nothing answers there): publish to the desk you used before, and it is sent when the newsroom answers.';
    desks.mockResolvedValue({ user: null, desks: [], message, lastDesk: 'City' });
    const dialog = new PublishDialogState(['harbour'], new NewsroomPublications());
    await dialog.load();
    expect({ typed: dialog.typed, desk: dialog.desk, message: dialog.desks?.message }).toEqual({
      typed: true,
      desk: 'City',
      message,
    });
    dialog.desk = '  ';
    expect(await dialog.publish()).toBe(false);
    expect(dialog.problem?.message).toBe('Choose the desk to publish to.');
    expect(publish).not.toHaveBeenCalled();
    dialog.desk = ' City ';
    expect(await dialog.publish()).toBe(true);
    expect(publish).toHaveBeenCalledWith({
      ids: ['harbour'],
      desk: 'City',
      confidential: false,
      withAudio: false,
    });
  });

  it('keeps the dialog open with the reason when a transcript is refused', async () => {
    desks.mockResolvedValue(online);
    publish.mockResolvedValueOnce({
      publications: [],
      refused: [{ id: 'harbour', message: '"Harbour" is not finished yet, so there is nothing to publish.' }],
    });
    const dialog = new PublishDialogState(['harbour'], new NewsroomPublications());
    await dialog.load();
    expect(await dialog.publish()).toBe(false);
    expect(dialog.problem?.message).toBe('"Harbour" is not finished yet, so there is nothing to publish.');
    expect(dialog.busy).toBe(false);
  });
});
