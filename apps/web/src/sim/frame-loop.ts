/**
 * The one requestAnimationFrame loop of the page. Views register a callback and redraw
 * their canvas imperatively when their data changed; React never re-renders per frame.
 * The loop also measures the frame rate (shown in the header and read by the e2e tests).
 */
import type { PacerStats } from './frame-pacer';

type FrameCallback = (now: number) => void;

declare global {
  interface Window {
    __manycore?: {
      fps: number;
      frames: number;
      longFrames: number;
      workMs: number;
      /** The lab's current run, for benchmarks and tests (set by App.tsx; read at any time). */
      run?: { readonly status: string; readonly simNs: number; readonly epoch: number; readonly pacing: PacerStats | null };
    };
  }
}

class FrameLoop {
  private readonly callbacks: { cb: FrameCallback; order: number }[] = [];
  private handle = 0;
  private stamps: number[] = [];
  fps = 0;
  frames = 0;
  longFrames = 0;
  /** Moving average of the time the callbacks take per frame, ms. */
  workMs = 0;
  private last = 0;

  add(cb: FrameCallback, order = 1): () => void {
    const entry = { cb, order };
    this.callbacks.push(entry);
    this.callbacks.sort((a, b) => a.order - b.order);
    if (!this.handle) this.handle = requestAnimationFrame(this.tick);
    return () => {
      const i = this.callbacks.indexOf(entry);
      if (i >= 0) this.callbacks.splice(i, 1);
    };
  }

  private tick = (now: number): void => {
    this.handle = 0;
    this.frames++;
    if (this.last && now - this.last > 50) this.longFrames++;
    this.last = now;
    this.stamps.push(now);
    while (this.stamps.length > 0 && now - this.stamps[0]! > 1000) this.stamps.shift();
    this.fps = this.stamps.length;
    const m = (window.__manycore ??= { fps: 0, frames: 0, longFrames: 0, workMs: 0 });
    m.fps = this.fps;
    m.frames = this.frames;
    m.longFrames = this.longFrames;
    m.workMs = this.workMs;
    const t0 = performance.now();
    for (const { cb } of [...this.callbacks]) {
      try {
        cb(now);
      } catch (err) {
        console.error(err);
      }
    }
    this.workMs += 0.05 * (performance.now() - t0 - this.workMs);
    if (this.callbacks.length > 0) this.handle = requestAnimationFrame(this.tick);
  };
}

export const frameLoop = new FrameLoop();
