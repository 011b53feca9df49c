import { describe, expect, it } from 'vitest';
import { isTypingTarget, moveCore } from './theme-keyboard';

describe('keyboard', () => {
  it('leaves text fields their keys, not buttons', () => {
    expect(isTypingTarget({ tagName: 'INPUT', type: 'text' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'number' })).toBe(true);
    expect(isTypingTarget({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTypingTarget({ tagName: 'SELECT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTypingTarget({ tagName: 'CANVAS' })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });

  it('moves between the cores of a 6x4 mesh of two-core tiles', () => {
    const m = (c: number | null, k: 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown') => moveCore(c, k, 6, 4, 2);
    expect(m(null, 'ArrowDown')).toBe(0);
    expect(m(0, 'ArrowRight')).toBe(1);
    expect(m(1, 'ArrowRight')).toBe(2); // into the next tile
    expect(m(2, 'ArrowLeft')).toBe(1);
    expect(m(0, 'ArrowLeft')).toBe(0); // the mesh's edge
    expect(m(11, 'ArrowRight')).toBe(11);
    expect(m(2, 'ArrowDown')).toBe(14); // same core of the tile below
    expect(m(3, 'ArrowDown')).toBe(15);
    expect(m(14, 'ArrowUp')).toBe(2);
    expect(m(1, 'ArrowUp')).toBe(1);
    expect(m(47, 'ArrowDown')).toBe(47);
    expect(m(99, 'ArrowUp')).toBe(0);
  });
});
