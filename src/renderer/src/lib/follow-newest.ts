/** What following needs of a scrolling element. */
export interface ScrollBox {
  scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
}

/**
 * Keeps a growing log scrolled to its newest words, as a chat does, but only while the reader
 * is down there: someone who scrolled up to reread an earlier answer stays where they are until
 * they come back to the bottom (or ask something new).
 *
 * At most one scroll a frame, made in the frame's own callback: reading scrollHeight forces a
 * layout, and a streamed answer changes many times a frame. Forcing one layout per change kept
 * the page busy when the frame came, so the first words painted a frame late; in the frame
 * callback that layout is the one the frame needs anyway.
 */
export class NewestFollower {
  private following = true;
  private queued = false;
  /** Where our own last scroll left the box: its scroll event is not the reader moving. */
  private ownScrollTop: number | undefined;

  constructor(
    private readonly box: ScrollBox,
    private readonly nextFrame: (callback: () => void) => unknown = (callback) =>
      requestAnimationFrame(callback),
    /** How near the bottom, in pixels, still counts as being at it. */
    private readonly slack = 32,
  ) {}

  get isFollowing(): boolean {
    return this.following;
  }

  /** The log grew: show the newest words in the next frame, if the reader is following. */
  grew(): void {
    if (!this.following || this.queued) return;
    this.queued = true;
    this.nextFrame(() => {
      this.queued = false;
      if (!this.following) return;
      this.box.scrollTop = this.box.scrollHeight;
      this.ownScrollTop = this.box.scrollTop;
    });
  }

  /** The box scrolled: the reader follows again only once back at the bottom. */
  scrolled(): void {
    if (this.box.scrollTop === this.ownScrollTop) return;
    this.ownScrollTop = undefined;
    const distance = this.box.scrollHeight - this.box.scrollTop - this.box.clientHeight;
    this.following = distance <= this.slack;
  }

  /** The reader asked something: take them to the answer. */
  follow(): void {
    this.following = true;
    this.grew();
  }
}
