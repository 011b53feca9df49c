/**
 * Themes (light, dark, high contrast) and the text size, for the page and for what it draws.
 * The page's colours are CSS custom properties per theme (styles.css, `:root[data-theme=...]`);
 * canvas and SVG drawing reads them from `palette`, which `applyAppearance` fills from the
 * computed CSS variables once per change (never per frame). `appearanceVersion` changes with
 * every change, so the canvases redraw. Palettes are colour-blind safe in every theme:
 * Okabe-Ito for categories (reordered per background), viridis for sequential values, and a
 * dash pattern per series so that series that coincide stay apart.
 */

export type ThemeName = 'light' | 'dark' | 'contrast';
export type ThemeChoice = 'system' | ThemeName;
export const THEME_CHOICES: readonly { id: ThemeChoice; label: string }[] = [
  { id: 'system', label: 'System' },
  { id: 'light', label: 'Light' },
  { id: 'dark', label: 'Dark' },
  { id: 'contrast', label: 'High contrast' },
];
/** Text sizes offered, in percent of the browser's default. */
export const TEXT_SIZES = [100, 125, 150, 200] as const;
export type TextSize = (typeof TEXT_SIZES)[number];

export const THEME_KEY = 'manycore.theme';
export const TEXT_KEY = 'manycore.textSize';

/** Smallest text drawn on a canvas, in CSS pixels at 100 % text size (grows with the text size). */
export const MIN_CANVAS_TEXT_PX = 11;

/** Dash patterns for the series of a chart, in order (the first solid). */
export const SERIES_DASHES: readonly (readonly number[])[] = [[], [9, 4], [2, 3], [12, 4, 2, 4], [5, 5], [1, 4], [14, 3, 3, 3, 3, 3], [7, 2, 2, 2]];

/** Colours the drawings use; filled from the CSS variables of the theme in force. */
export interface Palette {
  theme: ThemeName;
  /** Canvas background. */
  canvas: string;
  ink: string;
  muted: string;
  grid: string;
  /** Tiles, routers, stores of the floorplans. */
  tile: string;
  tileLine: string;
  /** Power-domain outlines, controller outlines, router stubs. */
  domainLine: string;
  ctrlLine: string;
  stub: string;
  router: string;
  routerInk: string;
  idleLink: string;
  idleCell: string;
  store: string;
  storeFill: string;
  storeInk: string;
  /** Outline of the selected core (and of the keyboard cursor). */
  select: string;
  hover: string;
  /** Timeline markers (what-if changes). */
  marker: string;
  /** Stacked-bar colours of "busy" and "sleep". */
  busy: string;
  sleep: string;
  /** Okabe-Ito, ordered for this background. */
  category: string[];
  /** CSS px per CSS px of text at 100 % (1.5 at 150 % text). */
  textScale: number;
}

/** Okabe-Ito, ordered for lines on a light background. */
const CATEGORY_LIGHT = ['#0072B2', '#D55E00', '#009E73', '#E69F00', '#CC79A7', '#56B4E9', '#000000', '#B8A000'];
/** Okabe-Ito, ordered for a dark background (no black; the dark blue last). */
const CATEGORY_DARK = ['#56B4E9', '#E69F00', '#009E73', '#F0E442', '#CC79A7', '#D55E00', '#FFFFFF', '#0072B2'];

export const LIGHT: Palette = {
  theme: 'light',
  canvas: '#ffffff',
  ink: '#1f2933',
  muted: '#5f6b7a',
  grid: '#e3e7ec',
  tile: '#f7f8fa',
  tileLine: '#9aa4b1',
  domainLine: '#8a94a3',
  ctrlLine: '#374151',
  stub: '#6b7280',
  router: '#4b5563',
  routerInk: '#ffffff',
  idleLink: '#d5dae0',
  idleCell: '#e3e7ec',
  store: '#e9edf2',
  storeFill: '#7fa7c9',
  storeInk: '#3b4654',
  select: '#D55E00',
  hover: '#000000',
  marker: '#7a3e9d',
  busy: '#1f2933',
  sleep: '#c9ced6',
  category: CATEGORY_LIGHT,
  textScale: 1,
};

/** The palette in force (light until the page applies its theme; tests in node keep it). */
export const palette: Palette = { ...LIGHT, category: [...CATEGORY_LIGHT] };

/** The palette object's keys that come from CSS variables (`--c-<key>`). */
const CSS_KEYS = ['canvas', 'ink', 'muted', 'grid', 'tile', 'tileLine', 'domainLine', 'ctrlLine', 'stub', 'router', 'routerInk', 'idleLink', 'idleCell', 'store', 'storeFill', 'storeInk', 'select', 'hover', 'marker', 'busy', 'sleep'] as const;

export function cssVarName(key: string): string {
  return `--c-${key.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)}`;
}

let version = 0;
const listeners = new Set<() => void>();
/** Changes whenever the theme or the text size changes (canvases compare it to redraw). */
export function appearanceVersion(): number {
  return version;
}
export function onAppearance(f: () => void): () => void {
  listeners.add(f);
  return () => void listeners.delete(f);
}

/** A stored theme choice, or 'system' for anything else (a missing or edited value). */
export function parseThemeChoice(v: unknown): ThemeChoice {
  return v === 'light' || v === 'dark' || v === 'contrast' || v === 'system' ? v : 'system';
}
/** A stored text size, or 100 for anything else. */
export function parseTextSize(v: unknown): TextSize {
  const n = typeof v === 'string' && /^\d{3}$/.test(v) ? Number(v) : typeof v === 'number' ? v : NaN;
  return (TEXT_SIZES as readonly number[]).includes(n) ? (n as TextSize) : 100;
}

/** The theme a choice means, given whether the system prefers dark and more contrast. */
export function resolveTheme(choice: ThemeChoice, prefersDark: boolean, prefersContrast = false): ThemeName {
  if (choice !== 'system') return choice;
  if (prefersContrast) return 'contrast';
  return prefersDark ? 'dark' : 'light';
}

/** Fills `palette` from computed CSS values (`read(name)` gives a variable's value). */
export function fillPalette(theme: ThemeName, read: (name: string) => string, textScale: number): void {
  palette.theme = theme;
  const fallback = LIGHT as unknown as Record<string, string>;
  const target = palette as unknown as Record<string, string>;
  for (const k of CSS_KEYS) target[k] = read(cssVarName(k)).trim() || fallback[k]!;
  const cats = theme === 'light' ? CATEGORY_LIGHT : CATEGORY_DARK;
  // the same array object (modules keep a reference to it), new contents
  palette.category.length = 0;
  palette.category.push(...cats.map((c, i) => read(`--c-cat-${i}`).trim() || c));
  palette.textScale = textScale > 0 && Number.isFinite(textScale) ? textScale : 1;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
export function storedTheme(): ThemeChoice {
  try {
    return parseThemeChoice(storage()?.getItem(THEME_KEY));
  } catch {
    return 'system';
  }
}
export function storedTextSize(): TextSize {
  try {
    return parseTextSize(storage()?.getItem(TEXT_KEY));
  } catch {
    return 100;
  }
}
export function storeAppearance(theme: ThemeChoice, text: TextSize): void {
  try {
    storage()?.setItem(THEME_KEY, theme);
    storage()?.setItem(TEXT_KEY, String(text));
  } catch {
    // private mode: the choice lasts for this page only
  }
}

const media = (q: string): boolean => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(q).matches;

/**
 * Puts a theme and text size on the page: `data-theme` and the root font size, then reads the
 * palette from the computed CSS variables and tells the canvases. Returns the theme applied.
 */
export function applyAppearance(choice: ThemeChoice, text: TextSize): ThemeName {
  const theme = resolveTheme(choice, media('(prefers-color-scheme: dark)'), media('(prefers-contrast: more)'));
  if (typeof document === 'undefined') return theme;
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.dataset.themeChoice = choice;
  root.style.setProperty('--text-scale', String(text / 100));
  root.style.colorScheme = theme === 'light' ? 'light' : 'dark';
  const cs = getComputedStyle(root);
  // the root font size over the usual 16 px: the text size and the browser's own font setting
  const rootPx = parseFloat(cs.fontSize) || 16;
  fillPalette(theme, (n) => cs.getPropertyValue(n), rootPx / 16);
  version++;
  for (const f of listeners) f();
  return theme;
}

/** Calls `f` when the system's colour scheme or contrast preference changes. */
export function onSystemTheme(f: () => void): () => void {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => undefined;
  const qs = [window.matchMedia('(prefers-color-scheme: dark)'), window.matchMedia('(prefers-contrast: more)')];
  for (const q of qs) q.addEventListener('change', f);
  return () => qs.forEach((q) => q.removeEventListener('change', f));
}

/** The dash pattern of series `i`. */
export function seriesDash(i: number): number[] {
  return [...SERIES_DASHES[i % SERIES_DASHES.length]!];
}

/**
 * Runs `f` with the light palette in force (exports: an SVG or PNG goes on a white page
 * whatever the screen's theme), then puts the theme's palette back.
 */
export function withLightPalette<T>(f: () => T): T {
  const saved: Palette = { ...palette, category: [...palette.category] };
  Object.assign(palette, { ...LIGHT, category: palette.category, textScale: saved.textScale });
  palette.category.length = 0;
  palette.category.push(...LIGHT.category);
  try {
    return f();
  } finally {
    Object.assign(palette, { ...saved, category: palette.category });
    palette.category.length = 0;
    palette.category.push(...saved.category);
  }
}
