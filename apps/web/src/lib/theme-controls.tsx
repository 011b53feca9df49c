/**
 * The header's theme and text-size controls: remembered in localStorage, applied to the page
 * (lib/theme.ts), following the system's colour scheme while "System" is chosen.
 */
import { useEffect, useLayoutEffect, useState } from 'react';
import { applyAppearance, onSystemTheme, parseTextSize, parseThemeChoice, storeAppearance, storedTextSize, storedTheme, TEXT_SIZES, THEME_CHOICES, type TextSize, type ThemeChoice } from './theme';

export function AppearanceControls() {
  const [theme, setTheme] = useState<ThemeChoice>(storedTheme);
  const [text, setText] = useState<TextSize>(storedTextSize);
  useLayoutEffect(() => {
    applyAppearance(theme, text);
    storeAppearance(theme, text);
  }, [theme, text]);
  useEffect(() => (theme === 'system' ? onSystemTheme(() => applyAppearance(theme, text)) : undefined), [theme, text]);
  return (
    <div className="appearance" role="group" aria-label="Appearance">
      <label className="inline">
        <span>Theme</span>
        <select value={theme} onChange={(e) => setTheme(parseThemeChoice(e.target.value))} data-testid="theme">
          {THEME_CHOICES.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      <label className="inline">
        <span>Text</span>
        <select value={String(text)} onChange={(e) => setText(parseTextSize(e.target.value))} data-testid="text-size">
          {TEXT_SIZES.map((s) => (
            <option key={s} value={String(s)}>
              {s}%
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
