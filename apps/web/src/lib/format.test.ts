import { describe, expect, it } from 'vitest';
import { bytes, delta, joules, num, simRate, simTime, timeUnit, watts } from './format';

describe('format', () => {
  it('formats numbers with 3 significant digits', () => {
    expect(num(0)).toBe('0');
    expect(num(1234.5)).toBe('1235');
    expect(num(12.345)).toBe('12.3');
    expect(num(0.5)).toBe('0.5');
    expect(num(2_500_000)).toBe('2.5M');
    expect(num(NaN)).toBe('–');
  });
  it('formats byte counts in whole KB and MB when exact', () => {
    expect([1, 512, 1024, 65536, 1 << 20, 1536].map(bytes)).toEqual(['1 B', '512 B', '1 KB', '64 KB', '1 MB', '1536 B']);
  });
  it('formats simulated time and picks axis units', () => {
    expect(simTime(500)).toBe('500 ns');
    expect(simTime(2500)).toBe('2.5 µs');
    expect(simTime(3_200_000)).toBe('3.2 ms');
    expect(timeUnit(5000)).toEqual({ div: 1000, label: 'µs' });
    expect(timeUnit(100)).toEqual({ div: 1, label: 'ns' });
  });
  it('formats power, energy, deltas and rates', () => {
    expect(watts(31.6)).toBe('31.6 W');
    expect(watts(0.25)).toBe('250 mW');
    expect(joules(0.0067)).toBe('6.7 mJ');
    expect(delta(10, 12)).toEqual({ abs: '+2', rel: '+20 %', sign: 1 });
    expect(delta(10, 9).rel).toBe('-10 %');
    expect(delta(0, 0).rel).toBe('0 %');
    expect(simRate(1000, 1000)).toBe('1 µs/s');
  });
});
