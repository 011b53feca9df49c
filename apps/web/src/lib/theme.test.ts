import { describe, expect, it } from 'vitest';
import { CATEGORY } from '../charts/draw';
import { cssVarName, fillPalette, LIGHT, palette, parseTextSize, parseThemeChoice, resolveTheme, seriesDash, withLightPalette } from './theme';

describe('theme', () => {
  it('ignores stored values it does not know', () => {
    expect(parseThemeChoice('dark')).toBe('dark');
    expect(parseThemeChoice('contrast')).toBe('contrast');
    expect(parseThemeChoice('<script>')).toBe('system');
    expect(parseThemeChoice(null)).toBe('system');
    expect(parseTextSize('150')).toBe(150);
    expect(parseTextSize('200')).toBe(200);
    expect(parseTextSize('175')).toBe(100);
    expect(parseTextSize('1e3')).toBe(100);
    expect(parseTextSize(null)).toBe(100);
  });

  it('follows the system unless a theme is chosen', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('system', false, true)).toBe('contrast');
    expect(resolveTheme('light', true)).toBe('light');
  });

  it('fills the palette from CSS variables, in place, and the exports draw in light', () => {
    const vars: Record<string, string> = { [cssVarName('canvas')]: '#151b22', [cssVarName('ink')]: ' #e6eaf0 ', [cssVarName('tileLine')]: '#6b7787' };
    expect(cssVarName('tileLine')).toBe('--c-tile-line');
    fillPalette('dark', (n) => vars[n] ?? '', 1.5);
    expect(palette.canvas).toBe('#151b22');
    expect(palette.ink).toBe('#e6eaf0');
    expect(palette.tileLine).toBe('#6b7787');
    // a variable the page lacks keeps the light value
    expect(palette.grid).toBe(LIGHT.grid);
    expect(palette.textScale).toBe(1.5);
    // the chart module's CATEGORY is the palette's array: no black line on a dark canvas
    expect(CATEGORY).toBe(palette.category);
    expect(CATEGORY).not.toContain('#000000');
    expect(withLightPalette(() => [palette.canvas, CATEGORY[0]])).toEqual(['#ffffff', '#0072B2']);
    expect(palette.canvas).toBe('#151b22');
    expect(CATEGORY[0]).toBe('#56B4E9');
    fillPalette('light', () => '', 1);
    expect(palette.canvas).toBe('#ffffff');
    expect(CATEGORY).toContain('#000000');
  });

  it('gives series their own dash patterns', () => {
    expect(seriesDash(0)).toEqual([]);
    const dashes = Array.from({ length: 8 }, (_, i) => JSON.stringify(seriesDash(i)));
    expect(new Set(dashes).size).toBe(8);
    expect(seriesDash(8)).toEqual(seriesDash(0));
  });
});
