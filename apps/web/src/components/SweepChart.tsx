/**
 * The chart of a guided sweep: one line per series through the lab's points, drawn as they
 * arrive, and the paper's values beside them as hollow diamonds (legend "paper"). SVG, so it
 * scales with the page and the text size; colours follow the theme's colour-blind-safe
 * palette, and each series also has its own dash pattern. A data table is the alternative.
 */
import { useEffect, useMemo, useReducer } from 'react';
import { scaleLinear, scaleLog, scalePoint } from 'd3';
import type { ChartHint, ChartPoint } from '@manycore/workloads';
import { axisLabel, formatField, formatTick } from '../lib/format';
import { onAppearance, palette, seriesDash } from '../lib/theme';

const W = 640;
const H = 300;
const M = { top: 14, right: 18, bottom: 46, left: 74 };

function seriesNames(lab: readonly ChartPoint[], paper: readonly ChartPoint[]): string[] {
  const out: string[] = [];
  for (const p of [...lab, ...paper]) if (!out.includes(p.series)) out.push(p.series);
  return out;
}

function diamond(x: number, y: number, r: number): string {
  return `M${x},${y - r}L${x + r},${y}L${x},${y + r}L${x - r},${y}Z`;
}

export interface SweepChartProps {
  hint: ChartHint;
  lab: readonly ChartPoint[];
  paper: readonly ChartPoint[];
  /** x values to keep room for before their points arrive (the sweep's values) */
  xDomain?: readonly (number | string)[];
  title: string;
}

export function SweepChart({ hint, lab, paper, xDomain = [], title }: SweepChartProps) {
  const [, redraw] = useReducer((x: number) => x + 1, 0);
  useEffect(() => onAppearance(redraw), []);
  const names = useMemo(() => seriesNames(lab, paper), [lab, paper]);
  const color = (s: string) => palette.category[names.indexOf(s) % palette.category.length] ?? 'currentColor';
  const dash = (s: string) => seriesDash(names.indexOf(s)).join(' ');
  const logY = !!hint.logY;
  const shownLab = lab.filter((p) => !logY || p.y > 0);
  const shownPaper = paper.filter((p) => !logY || p.y > 0);
  const all = [...shownLab, ...shownPaper];
  const numeric = [...xDomain, ...all.map((p) => p.x)].every((x) => typeof x === 'number');
  const logX = numeric && !!hint.logX && [...xDomain, ...all.map((p) => p.x)].every((x) => (x as number) > 0);

  // x: numbers on a linear or log scale, else categories in order of appearance
  let xAt: (x: number | string) => number;
  let xTicks: { v: number | string; at: number }[];
  const xr: [number, number] = [M.left, W - M.right];
  if (numeric) {
    const xs = [...xDomain, ...all.map((p) => p.x)] as number[];
    const lo = xs.length ? Math.min(...xs) : 0;
    const hi = xs.length ? Math.max(...xs) : 1;
    const s = logX ? scaleLog().domain([lo, hi === lo ? lo * 10 : hi]).range(xr).nice() : scaleLinear().domain([lo, hi === lo ? lo + 1 : hi]).range(xr).nice();
    xAt = (x) => s(x as number);
    const ticks = logX ? s.ticks(6).filter((t, i, a) => a.length <= 8 || Math.log2(t) % 1 === 0 || i === 0) : s.ticks(7);
    xTicks = ticks.slice(0, 12).map((v) => ({ v, at: s(v) }));
  } else {
    const cats: string[] = [];
    for (const x of [...xDomain, ...all.map((p) => p.x)]) if (!cats.includes(String(x))) cats.push(String(x));
    const s = scalePoint<string>().domain(cats).range(xr).padding(0.5);
    xAt = (x) => s(String(x)) ?? M.left;
    xTicks = cats.map((c) => ({ v: c, at: s(c) ?? M.left }));
  }
  // y: from 0 (linear, all positive) or the data's range (log)
  const ys = all.map((p) => p.y);
  const yr: [number, number] = [H - M.bottom, M.top];
  const yLo = ys.length ? Math.min(...ys) : 0;
  const yHi = ys.length ? Math.max(...ys) : 1;
  const ySc = logY ? scaleLog().domain([yLo, yHi === yLo ? yLo * 10 : yHi]).range(yr).nice() : scaleLinear().domain([Math.min(0, yLo), yHi === Math.min(0, yLo) ? yHi + 1 : yHi]).range(yr).nice();
  const yAt = (y: number) => ySc(y);
  const yTicks = ySc.ticks(6).slice(0, 10);

  const lines = names.map((s) => {
    const pts = shownLab.filter((p) => p.series === s);
    const ordered = numeric ? [...pts].sort((a, b) => (a.x as number) - (b.x as number)) : pts;
    return { s, d: ordered.map((p, i) => `${i ? 'L' : 'M'}${xAt(p.x).toFixed(1)},${yAt(p.y).toFixed(1)}`).join('') };
  });

  return (
    <figure className="sweep-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}: ${hint.y} against ${hint.x}, ${lab.length} lab point${lab.length === 1 ? '' : 's'}${paper.length ? `, ${paper.length} paper value${paper.length === 1 ? '' : 's'}` : ''}`}>
        <g className="sweep-grid">
          {yTicks.map((t) => (
            <line key={`y${t}`} x1={M.left} x2={W - M.right} y1={yAt(t)} y2={yAt(t)} />
          ))}
        </g>
        <g className="sweep-axis">
          <line x1={M.left} x2={W - M.right} y1={H - M.bottom} y2={H - M.bottom} />
          <line x1={M.left} x2={M.left} y1={M.top} y2={H - M.bottom} />
          {yTicks.map((t) => (
            <text key={`yt${t}`} x={M.left - 6} y={yAt(t)} dy="0.32em" textAnchor="end">
              {formatTick(hint.y, t)}
            </text>
          ))}
          {xTicks.map((t) => (
            <text key={`xt${String(t.v)}`} x={t.at} y={H - M.bottom + 16} textAnchor="middle">
              {typeof t.v === 'number' ? formatTick(hint.x, t.v) : t.v}
            </text>
          ))}
          <text className="sweep-axis-label" x={(M.left + W - M.right) / 2} y={H - 6} textAnchor="middle">
            {axisLabel(hint.x)}
            {logX ? ' (log)' : ''}
          </text>
          <text className="sweep-axis-label" transform={`translate(14 ${(M.top + H - M.bottom) / 2}) rotate(-90)`} textAnchor="middle">
            {axisLabel(hint.y)}
            {logY ? ' (log)' : ''}
          </text>
        </g>
        <g data-testid="sweep-points" data-count={shownLab.length} data-paper-count={shownPaper.length}>
          {lines.map((l) => (l.d ? <path key={`l${l.s}`} className="sweep-line" d={l.d} stroke={color(l.s)} strokeDasharray={dash(l.s)} /> : null))}
          {shownLab.map((p, i) => (
            <circle key={`p${i}`} className="sweep-dot" cx={xAt(p.x)} cy={yAt(p.y)} r={4} fill={color(p.series)}>
              <title>{`${p.series ? p.series + ': ' : ''}${hint.x} ${String(p.x)}, ${hint.y} ${formatField(hint.y, p.y)} (run ${p.run + 1})`}</title>
            </circle>
          ))}
          {shownPaper.map((p, i) => (
            <path key={`q${i}`} className="sweep-paper" d={diamond(xAt(p.x), yAt(p.y), 7)} stroke={color(p.series)}>
              <title>{`paper: ${p.label ?? formatField(hint.y, p.y)}`}</title>
            </path>
          ))}
        </g>
      </svg>
      <figcaption className="sweep-legend">
        {names.map((s) => (
          <span key={s || '(all)'} className="sweep-key">
            <svg width="28" height="12" aria-hidden="true">
              <line x1="1" x2="27" y1="6" y2="6" stroke={color(s)} strokeWidth="2.5" strokeDasharray={dash(s)} />
              <circle cx="14" cy="6" r="3.5" fill={color(s)} />
            </svg>
            {s || 'lab'}
          </span>
        ))}
        {paper.length ? (
          <span className="sweep-key" data-testid="sweep-paper-key">
            <svg width="18" height="16" aria-hidden="true">
              <path className="sweep-paper" d={diamond(9, 8, 6)} stroke="currentColor" />
            </svg>
            paper
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}
