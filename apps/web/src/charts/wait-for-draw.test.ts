/**
 * The wait-for arrows of a deadlock (chip-draw.ts drawWaitFor): one curved arrow and one head
 * per edge of each cycle, starting at the waiting core's centre and ending near the centre of
 * the core it waits for; nothing for no cycle or unknown cores.
 */
import { describe, expect, it } from 'vitest';
import { resolveChip } from '@manycore/engine';
import { chipGeometry, drawWaitFor } from './chip-draw';
import { SvgPainter } from './painter';

const g = chipGeometry(resolveChip('scc'));
const svgOf = (cycles: number[][]) => {
  const p = new SvgPainter(g.width, g.height);
  drawWaitFor(p, g, cycles);
  return p.toString();
};
const red = (svg: string) => svg.match(/<path d="([^"]+)"[^>]*stroke="#d62728"/g) ?? [];

describe('drawWaitFor', () => {
  it('draws an arrow from each core of the cycle to the core it waits for', () => {
    const svg = svgOf([[0, 2, 0]]);
    const arrows = red(svg);
    expect(arrows).toHaveLength(2);
    expect(svg.match(/fill="#d62728"/g)).toHaveLength(2); // two heads
    // the first arrow starts at the centre of core 0
    const c0 = g.cores[0]!;
    const start = /<path d="M([\d.-]+),([\d.-]+)/.exec(arrows[0]!)!;
    expect(Number(start[1])).toBeCloseTo(c0.x + c0.w / 2, 1);
    expect(Number(start[2])).toBeCloseTo(c0.y + c0.h / 2, 1);
  });

  it('draws nothing without a cycle, and skips cores the chip does not have', () => {
    expect(red(svgOf([]))).toHaveLength(0);
    expect(red(svgOf([[0, 999, 0]]))).toHaveLength(0);
  });
});
