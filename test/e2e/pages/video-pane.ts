import type { Locator, Page } from '@playwright/test';

/** What the page's video element reports: its picture's size, where it is and whether it plays. */
export interface VideoState {
  videoWidth: number;
  videoHeight: number;
  currentTime: number;
  paused: boolean;
  /** Its drawn width in CSS pixels (0 when hidden). */
  shownWidth: number;
}

/** The reader's video pane: the picture of a video recording, and its Small, Large and Hide controls. */
export class VideoPane {
  readonly pane: Locator;
  readonly video: Locator;
  readonly small: Locator;
  readonly large: Locator;
  readonly hide: Locator;
  readonly show: Locator;

  constructor(readonly page: Page) {
    this.pane = page.getByRole('region', { name: 'Video' });
    this.video = this.pane.locator('video');
    this.small = this.pane.getByRole('button', { name: 'Small video' });
    this.large = this.pane.getByRole('button', { name: 'Large video' });
    this.hide = this.pane.getByRole('button', { name: 'Hide video' });
    this.show = this.pane.getByRole('button', { name: 'Show video' });
  }

  state(): Promise<VideoState> {
    return this.video.evaluate((element: HTMLVideoElement) => ({
      videoWidth: element.videoWidth,
      videoHeight: element.videoHeight,
      currentTime: element.currentTime,
      paused: element.paused,
      shownWidth: element.getBoundingClientRect().width,
    }));
  }

  /**
   * The picture as it is now, drawn into a canvas: a few sampled pixels, so two moments of a
   * moving picture can be told apart.
   */
  picture(): Promise<number[]> {
    return this.video.evaluate((element: HTMLVideoElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = element.videoWidth;
      canvas.height = element.videoHeight;
      const context = canvas.getContext('2d');
      if (!context) return [];
      context.drawImage(element, 0, 0);
      return [...context.getImageData(0, 0, canvas.width, canvas.height).data.filter((_, i) => i % 97 === 0)];
    });
  }
}
