import { describe, expect, it } from 'vitest';
import { NewestFollower, type ScrollBox } from './follow-newest';

/** A scrolling box with layout arithmetic: scrollTop is clamped as a browser clamps it. */
class FakeBox implements ScrollBox {
  private top = 0;
  layoutReads = 0;
  constructor(
    public contentHeight: number,
    readonly clientHeight = 100,
  ) {}
  get scrollHeight(): number {
    this.layoutReads++;
    return this.contentHeight;
  }
  get scrollTop(): number {
    return this.top;
  }
  set scrollTop(value: number) {
    this.top = Math.max(0, Math.min(value, this.contentHeight - this.clientHeight));
  }
}

function setup(contentHeight = 100) {
  const box = new FakeBox(contentHeight);
  const frames: (() => void)[] = [];
  const follower = new NewestFollower(box, (callback) => frames.push(callback));
  const runFrame = (): void => {
    for (const callback of frames.splice(0)) callback();
  };
  return { box, frames, follower, runFrame };
}

describe('NewestFollower', () => {
  it('scrolls to the newest words once a frame, however often the log grows in it', () => {
    const { box, frames, follower, runFrame } = setup();
    for (let word = 0; word < 50; word++) {
      box.contentHeight += 4;
      follower.grew();
    }
    expect(frames).toHaveLength(1);
    // Nothing read the layout while the words arrived.
    expect(box.layoutReads).toBe(0);
    runFrame();
    expect(box.scrollTop).toBe(box.contentHeight - box.clientHeight);
    expect(box.layoutReads).toBe(1);
  });

  it('its own scroll event does not stop it, even when the log grew again before the event', () => {
    const { box, follower, runFrame } = setup(500);
    follower.grew();
    runFrame();
    box.contentHeight += 300; // a long piece arrived before the browser sent the scroll event
    follower.scrolled();
    expect(follower.isFollowing).toBe(true);
    follower.grew();
    runFrame();
    expect(box.scrollTop).toBe(700);
  });

  it('a reader who scrolled up stays where they are while the answer streams on', () => {
    const { box, follower, runFrame } = setup(500);
    follower.grew();
    runFrame();
    box.scrollTop = 120;
    follower.scrolled();
    expect(follower.isFollowing).toBe(false);
    box.contentHeight += 200;
    follower.grew();
    runFrame();
    expect(box.scrollTop).toBe(120);
  });

  it('follows again once the reader is back at the bottom, or asks something new', () => {
    const { box, follower, runFrame } = setup(500);
    box.scrollTop = 100;
    follower.scrolled();
    expect(follower.isFollowing).toBe(false);
    box.scrollTop = 390; // within the slack of the bottom (400)
    follower.scrolled();
    expect(follower.isFollowing).toBe(true);

    box.scrollTop = 0;
    follower.scrolled();
    follower.follow();
    runFrame();
    expect(box.scrollTop).toBe(400);
  });

  it('a reader who scrolls up between a growth and its frame is not pulled down', () => {
    const { box, follower, runFrame } = setup(500);
    follower.grew();
    box.scrollTop = 50;
    follower.scrolled();
    runFrame();
    expect(box.scrollTop).toBe(50);
  });
});
