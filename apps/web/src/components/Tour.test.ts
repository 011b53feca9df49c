import { describe, expect, it } from 'vitest';
import { firstVisit, rememberTourClosed, TOUR_KEY, TOUR_STEPS } from './Tour';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('first-visit tour', () => {
  it('opens on the first visit only, until it is closed', () => {
    const s = memoryStorage();
    expect(firstVisit(s)).toBe(true);
    rememberTourClosed(s);
    expect(s.data.get(TOUR_KEY)).toBe('done');
    expect(firstVisit(s)).toBe(false);
  });
  it('stays closed, and nothing throws, where storage is blocked', () => {
    const blocked = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(firstVisit(blocked)).toBe(false);
    expect(firstVisit(null)).toBe(false);
    expect(() => rememberTourClosed(blocked)).not.toThrow();
  });
  it('has one step per part of the page', () => {
    expect(new Set(TOUR_STEPS.map((s) => s.target)).size).toBe(TOUR_STEPS.length);
    for (const s of TOUR_STEPS) expect(s.text.length).toBeGreaterThan(40);
  });
});
