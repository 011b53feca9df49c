import { describe, expect, it } from 'vitest';
import { DEFAULT_PACING, FramePacer, parsePacing, type PacerHost } from './frame-pacer';

/** A clock, timers and "after render" tasks under the test's control. */
class FakeHost implements PacerHost {
  t = 0;
  asleep = false;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private after: (() => void)[] = [];
  private ids = 0;
  now = () => this.t;
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.ids;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  };
  clearTimeout = (h: unknown) => {
    this.timers = this.timers.filter((x) => x.id !== h);
  };
  afterRender = (fn: () => void) => void this.after.push(fn);
  workersAsleep = () => this.asleep;
  /** Runs the frame's "after render" tasks at `t + renderMs`. */
  rendered(renderMs: number): void {
    this.advance(renderMs);
    const a = this.after;
    this.after = [];
    for (const fn of a) fn();
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const next = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers = this.timers.filter((x) => x !== next);
      this.t = next.at;
      next.fn();
    }
    this.t = end;
  }
  get pending(): number {
    return this.timers.length;
  }
}

function setup(leadMs = 0, maxShare = 1) {
  const host = new FakeHost();
  const log: [number, boolean][] = [];
  const pacer = new FramePacer((held) => log.push([host.t, held]), host, { leadMs, maxShare });
  return { host, log, pacer };
}

const PERIOD = 1000 / 60;

describe('frame pacer', () => {
  it('holds the workers from a frame start until the frame is rendered', () => {
    const { host, log, pacer } = setup();
    pacer.setActive(true);
    for (let i = 0; i < 3; i++) {
      pacer.frame(host.t);
      expect(pacer.holding).toBe(true);
      host.rendered(3);
      expect(pacer.holding).toBe(false);
      host.advance(PERIOD - 3);
    }
    expect(log.map(([, h]) => h)).toEqual([true, false, true, false, true, false]);
    expect(log[1]![0]).toBeCloseTo(3, 9);
    expect(host.pending).toBe(0); // no timers left between frames
  });

  it('with a lead, holds again `lead` ms before the next frame is due', () => {
    const { host, log, pacer } = setup(2);
    pacer.setActive(true);
    pacer.frame(0);
    host.rendered(3);
    host.advance(11); // 14 ms
    expect(pacer.holding).toBe(false);
    host.advance(0.7); // 14.7 > 16.67 - 2: pre-hold
    expect(pacer.holding).toBe(true);
    expect(log[2]![0]).toBeCloseTo(PERIOD - 2, 6);
    host.advance(2);
    pacer.frame(PERIOD);
    host.rendered(3);
    expect(pacer.holding).toBe(false);
  });

  it('lets the workers go when the frame it waits for never renders or never comes (watchdog)', () => {
    const { host, pacer } = setup(2);
    pacer.setActive(true);
    pacer.frame(0);
    host.advance(PERIOD + 0.1); // not rendered within a period
    expect(pacer.holding).toBe(false);
    pacer.frame(host.t);
    host.rendered(2);
    host.advance(13); // pre-hold
    expect(pacer.holding).toBe(true);
    host.advance(20); // no frame
    expect(pacer.holding).toBe(false);
  });

  it('releases at once and stays out of the way when deactivated (user pause, hidden page)', () => {
    const { host, log, pacer } = setup(2);
    pacer.setActive(true);
    pacer.frame(0);
    expect(pacer.holding).toBe(true);
    pacer.setActive(false);
    expect(pacer.holding).toBe(false);
    host.rendered(3); // the frame's "after render" comes late: no pre-hold from it
    host.advance(100);
    pacer.frame(PERIOD); // frames while inactive do nothing
    expect(pacer.holding).toBe(false);
    expect(host.pending).toBe(0);
    expect(log.map(([, h]) => h)).toEqual([true, false]);
    expect(pacer.stats().frames).toBe(1);
  });

  it('caps the share of wall time held: frames beyond it are not paced', () => {
    const { host, pacer } = setup(0, 0.5);
    pacer.setActive(true);
    for (let i = 0; i < 300; i++) {
      pacer.frame(host.t);
      host.rendered(12); // a heavy frame: 72 % of the period
      host.advance(PERIOD - 12);
    }
    const s = pacer.stats();
    expect(s.paced).toBeLessThan(s.frames);
    expect(s.paced).toBeGreaterThan(s.frames / 2);
    expect(s.heldMs / s.sinceMs).toBeLessThan(0.55);
    expect(s.heldMs / s.sinceMs).toBeGreaterThan(0.4);
  });

  it('accounts for the time it held the workers', () => {
    const { host, pacer } = setup();
    pacer.setActive(true);
    for (let i = 0; i < 10; i++) {
      pacer.frame(host.t);
      host.rendered(4);
      host.advance(PERIOD - 4);
    }
    const s = pacer.stats();
    expect(s.heldMs).toBeCloseTo(40, 6);
    expect(s.sinceMs).toBeCloseTo(10 * PERIOD, 6);
    expect(s.share).toBeGreaterThan(0.1); // moving towards 4 / 16.7
  });

  it('parses the tuning query', () => {
    expect(parsePacing(null)).toEqual(DEFAULT_PACING);
    expect(parsePacing('off')).toBeNull();
    expect(parsePacing('1.5,0.7')).toEqual({ leadMs: 1.5, maxShare: 0.7 });
    expect(parsePacing('0,1')).toEqual({ leadMs: 0, maxShare: 1 });
    expect(parsePacing('2')).toEqual({ leadMs: 2, maxShare: DEFAULT_PACING.maxShare });
    expect(parsePacing('nonsense')).toEqual(DEFAULT_PACING);
  });
});
