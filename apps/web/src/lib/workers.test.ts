import { describe, expect, it } from 'vitest';
import { describeLayout, effectiveCoresPerWorker, parseCoresPerWorker, workerLayout } from './workers';

describe('cores per worker in the browser', () => {
  it('auto packs cores when the chip has more cores than the host has CPUs, else one worker per core', () => {
    expect(effectiveCoresPerWorker('auto', 48, 64)).toBe(1);
    expect(effectiveCoresPerWorker('auto', 48, 48)).toBe(1);
    expect(effectiveCoresPerWorker('auto', 48, 2)).toBe(24);
    expect(effectiveCoresPerWorker('auto', 1024, 8)).toBe(128);
    expect(workerLayout('auto', 1024, 2)).toEqual({ workers: 2, coresPerWorker: 512 });
    expect(workerLayout('auto', 64, 6)).toEqual({ workers: 6, coresPerWorker: 11 });
  });

  it('a fixed setting is kept (1 = one worker per core), capped at the chip', () => {
    expect(effectiveCoresPerWorker(1, 1024, 2)).toBe(1);
    expect(workerLayout(1, 48, 2)).toEqual({ workers: 48, coresPerWorker: 1 });
    expect(workerLayout(8, 48, 2)).toEqual({ workers: 6, coresPerWorker: 8 });
    expect(effectiveCoresPerWorker(256, 48, 2)).toBe(48);
  });

  it('reads ?cpw= (auto by default) and describes the layout', () => {
    expect(parseCoresPerWorker(null)).toBe('auto');
    expect(parseCoresPerWorker('auto')).toBe('auto');
    expect(parseCoresPerWorker('8')).toBe(8);
    expect(parseCoresPerWorker('0')).toBe('auto');
    expect(parseCoresPerWorker('2000')).toBe('auto');
    expect(parseCoresPerWorker('x')).toBe('auto');
    expect(describeLayout('auto', 48, 2)).toBe('2 workers × 24 cores (auto, 2 CPUs)');
    expect(describeLayout(1, 48, 2)).toBe('48 workers, one per core');
  });
});
