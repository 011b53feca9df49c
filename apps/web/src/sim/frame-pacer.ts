/**
 * Frame pacing: a duty cycle that gives the page's main thread the CPU for each frame while a
 * run goes flat out.
 *
 * Why: a run uses one Web Worker per simulated core; on a machine with few CPUs dozens of
 * busy worker threads compete with the main thread, and the page drops frames although a
 * frame needs only a few milliseconds of work. The workers can be paused at any epoch
 * boundary without changing the results, so the pacer holds them while a frame is made:
 *
 *   frame starts (rAF)    hold: the request lands at the next epoch boundary
 *   frame rendered        release: a task posted from the rAF callback runs after the
 *                         frame's style, layout, paint and commit (canvas raster included)
 *
 * Tuning (bench/web-fps.mjs, 2 CPUs): holding earlier (a "lead" before the frame is due) or
 * longer (for the compositor) did not raise the frame rate and cost simulated throughput, so
 * both are off by default (leadMs stays for measuring on other machines). With very long
 * epochs (hundreds of workers) a hold lasts up to an epoch, so the share of wall time the
 * workers are held is capped (maxShare): past it, frames go unpaced until the share drops.
 * A watchdog releases a hold whose frame never renders (a hidden page has no frames).
 * The pacer only says "hold" or "release"; the run combines that with the user's pause and
 * the speed governor (live-run.ts), so it never overrides either.
 */

export interface PacerHost {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Runs `fn` in a task after the current frame's rendering (called from a rAF callback). */
  afterRender(fn: () => void): void;
  /** Are the workers asleep at an epoch boundary right now? */
  workersAsleep(): boolean;
}

export interface PacerOptions {
  /** Also hold this long before the next frame is due, ms (0: only from the frame's start). */
  leadMs: number;
  /** Most of the wall time the workers may be held (0..1); frames beyond it are not paced. */
  maxShare: number;
}

export const DEFAULT_PACING: PacerOptions = { leadMs: 0, maxShare: 0.5 };

/** Parses the `pace` query value: "off", or "<lead ms>,<max share>" (for measuring). */
export function parsePacing(q: string | null): PacerOptions | null {
  if (q === null || q === '' || q === 'on') return DEFAULT_PACING;
  if (q === 'off') return null;
  const [lead, share] = q.split(',');
  const l = lead === undefined || lead === '' ? DEFAULT_PACING.leadMs : Number(lead);
  const m = share === undefined || share === '' ? DEFAULT_PACING.maxShare : Number(share);
  if (!(l >= 0 && l < 50) || !(m > 0 && m <= 1)) return DEFAULT_PACING;
  return { leadMs: l, maxShare: m };
}

export interface PacerStats {
  /** Frames seen while active. */
  frames: number;
  /** Frames paced (the others were let go by the share cap). */
  paced: number;
  /** Pre-held frames whose start found the workers asleep already. */
  asleepAtFrame: number;
  /** Wall time the pacer held the workers, ms. */
  heldMs: number;
  /** Wall time since the pacer first became active, ms. */
  sinceMs: number;
  /** Recent share of wall time held (moving average over frames). */
  share: number;
  periodMs: number;
  holding: boolean;
}

export class FramePacer {
  private held = false;
  private heldSince = 0;
  private heldMs = 0;
  private startedAt = -1;
  private active = false;
  private lastFrame = 0;
  private heldAtLastFrame = 0;
  private share = 0;
  private periodMs = 1000 / 60;
  private preTimer: unknown = null;
  private watchdog: unknown = null;
  private cycle = 0;
  private preHeldCycle = -1;
  private frames = 0;
  private paced = 0;
  private asleepAtFrame = 0;

  constructor(
    private readonly onHold: (held: boolean) => void,
    private readonly host: PacerHost,
    private readonly opts: PacerOptions = DEFAULT_PACING,
  ) {}

  get holding(): boolean {
    return this.held;
  }

  /** Pacing applies only while this is true (visible page, run going); false releases at once. */
  setActive(active: boolean): void {
    if (active === this.active) return;
    this.active = active;
    this.cycle++; // a pending "after render" of an earlier cycle must not act
    if (active) {
      if (this.startedAt < 0) this.startedAt = this.host.now();
      this.lastFrame = 0;
    } else {
      this.cancelTimers();
      this.release();
    }
  }

  /** Call at the start of every animation frame (before any drawing), with its timestamp. */
  frame(now: number): void {
    if (!this.active) return;
    const cycle = ++this.cycle;
    const heldTotal = this.heldTotal();
    if (this.lastFrame > 0) {
      const d = now - this.lastFrame;
      // the display's frame period (60, 120 Hz...): a slow average over frames that were on time
      if (d > 4 && d < 1.5 * this.periodMs) this.periodMs += 0.05 * (d - this.periodMs);
      if (d > 0) this.share += 0.1 * (Math.min(1, (heldTotal - this.heldAtLastFrame) / d) - this.share);
    }
    this.lastFrame = now;
    this.heldAtLastFrame = heldTotal;
    this.frames++;
    if (this.preHeldCycle === cycle - 1 && this.held && this.host.workersAsleep()) this.asleepAtFrame++;
    this.cancelTimers();
    if (this.share > this.opts.maxShare) {
      this.release();
      return;
    }
    this.paced++;
    this.hold();
    // a frame that never renders must not keep the workers asleep
    this.watchdog = this.host.setTimeout(() => this.release(), this.periodMs);
    this.host.afterRender(() => {
      if (!this.active || cycle !== this.cycle) return;
      this.host.clearTimeout(this.watchdog);
      this.watchdog = null;
      this.release();
      const due = now + this.periodMs - this.opts.leadMs - this.host.now();
      if (this.opts.leadMs > 0 && due > 0.5) {
        this.preTimer = this.host.setTimeout(() => {
          this.preTimer = null;
          if (!this.active || cycle !== this.cycle) return;
          this.preHeldCycle = cycle;
          this.hold();
          this.watchdog = this.host.setTimeout(() => this.release(), this.opts.leadMs + 0.5 * this.periodMs);
        }, due);
      }
    });
  }

  stats(): PacerStats {
    const now = this.host.now();
    return {
      frames: this.frames,
      paced: this.paced,
      asleepAtFrame: this.asleepAtFrame,
      heldMs: this.heldTotal(),
      sinceMs: this.startedAt < 0 ? 0 : now - this.startedAt,
      share: this.share,
      periodMs: this.periodMs,
      holding: this.held,
    };
  }

  dispose(): void {
    this.setActive(false);
  }

  private heldTotal(): number {
    return this.heldMs + (this.held ? this.host.now() - this.heldSince : 0);
  }

  private hold(): void {
    if (this.held) return;
    this.held = true;
    this.heldSince = this.host.now();
    this.onHold(true);
  }

  private release(): void {
    if (!this.held) return;
    this.held = false;
    this.heldMs += this.host.now() - this.heldSince;
    this.onHold(false);
  }

  private cancelTimers(): void {
    if (this.preTimer !== null) this.host.clearTimeout(this.preTimer);
    if (this.watchdog !== null) this.host.clearTimeout(this.watchdog);
    this.preTimer = this.watchdog = null;
  }
}

/** The browser's PacerHost (a MessageChannel task for "after the frame's rendering"). */
export function browserPacerHost(workersAsleep: () => boolean): PacerHost {
  const queue: (() => void)[] = [];
  let channel: MessageChannel | null = null;
  return {
    now: () => performance.now(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    afterRender(fn) {
      if (!channel) {
        channel = new MessageChannel();
        channel.port1.onmessage = () => queue.shift()?.();
      }
      queue.push(fn);
      channel.port2.postMessage(0);
    },
    workersAsleep,
  };
}
