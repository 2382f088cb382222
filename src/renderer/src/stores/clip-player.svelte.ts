import { api } from '../lib/api';
import { storyStep, type StoryCue } from '../lib/highlight-logic';

/**
 * Plays spans of recordings back to back through one media element: a quote of the Quotes view
 * (a queue of one) or every quote of a story ("Play the story", issue #20). The element belongs
 * to the component that shows the player; it registers it here and the player drives it from
 * the element's own events, so there is no timer to dispose.
 */
export class ClipPlayer {
  queue = $state.raw<StoryCue[]>([]);
  /** The cue playing, by its position in the queue; undefined when stopped. */
  current = $state<number | undefined>(undefined);
  /** Said when a recording cannot be played (moved or deleted). */
  failure = $state('');

  private media: HTMLMediaElement | undefined;
  /** The cue whose recording is loading: it starts once the element knows its duration. */
  private pendingSeek = false;

  playingItem = $derived(this.current === undefined ? undefined : this.queue[this.current]?.itemId);

  attach(media: HTMLMediaElement | undefined): void {
    this.media = media;
  }

  play(queue: StoryCue[], from = 0): void {
    this.queue = queue;
    this.failure = '';
    this.start(from);
  }

  stop(): void {
    this.current = undefined;
    this.pendingSeek = false;
    this.media?.pause();
  }

  /** Goes to the next quote (1) or back to the previous (-1). */
  skip(direction: 1 | -1): void {
    if (this.current === undefined) return;
    const next = this.current + direction;
    if (next < 0 || next >= this.queue.length) this.stop();
    else this.start(next);
  }

  private start(index: number): void {
    const cue = this.queue[index];
    const media = this.media;
    if (!cue || !media) {
      this.stop();
      return;
    }
    this.current = index;
    const src = api.local.mediaUrl(cue.transcriptId);
    if (media.getAttribute('src') !== src) {
      this.pendingSeek = true;
      media.src = src;
      media.load();
      return;
    }
    this.seekAndPlay(cue);
  }

  private seekAndPlay(cue: StoryCue): void {
    const media = this.media;
    if (!media) return;
    media.currentTime = cue.startMs / 1000;
    media.play().catch(() => {
      // A play interrupted by a stop or the next quote is not an error worth showing.
    });
  }

  /** The element's loadedmetadata: a cue waiting for its recording starts now. */
  onMetadata(): void {
    if (!this.pendingSeek || this.current === undefined) return;
    this.pendingSeek = false;
    const cue = this.queue[this.current];
    if (cue) this.seekAndPlay(cue);
  }

  /** The element's timeupdate: at the end of a cue, on to the next one or stop. */
  onTime(): void {
    if (this.current === undefined || this.pendingSeek || !this.media) return;
    const step = storyStep(this.queue, this.current, this.media.currentTime * 1000);
    if (step.action === 'play') return;
    if (step.next === undefined) this.stop();
    else this.start(step.next);
  }

  onError(): void {
    if (this.current === undefined) return;
    this.failure =
      'The recording of this quote could not be played: it may have been moved or deleted, or its transcript is redacted and it is not a WAV recording in which Verbatim can silence the redacted words.';
    this.stop();
  }
}
