import { describe, expect, it } from 'vitest';
import { line } from 'd3';
import { escapeXml, ScaledPainter, SvgPainter } from './painter';

describe('SVG painter', () => {
  it('writes well-formed SVG and escapes text', () => {
    const p = new SvgPainter(100, 50);
    p.rect(1, 2, 3, 4, { fill: '#fff', stroke: '#000' }, 2);
    p.text(10, 10, '<script>alert("x")</script> & co', { anchor: 'middle' });
    p.path((ctx) => line().context(ctx as never)([[0, 0], [10, 10], [20, 5]]), { stroke: 'red', lineWidth: 2 });
    p.circle(5, 5, 2, { fill: 'blue' });
    const svg = p.toString();
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"')).toBe(true);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co');
    expect(svg).toMatch(/<path d="M0,0L10,10L20,5"/);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
  });
  it('escapes attribute characters', () => {
    expect(escapeXml(`a"b'c<d>&`)).toBe('a&quot;b&#39;c&lt;d&gt;&amp;');
  });
});

describe('scaled painter (legends of large floorplans)', () => {
  it('draws at (ox + k x, oy + k y) with sizes, widths and dashes scaled, and measures in local units', () => {
    const inner = new SvgPainter(1000, 1000);
    const p = new ScaledPainter(inner, 2, 100, 50);
    p.rect(1, 2, 3, 4, { fill: '#fff', stroke: '#000', lineWidth: 1.5, dash: [3, 2] }, 2);
    p.text(10, 10, 'hi', { size: 12 });
    p.path((c) => {
      c.moveTo(0, 0);
      c.lineTo(5, 5);
    }, { stroke: 'red', lineWidth: 1 });
    const svg = inner.toString();
    expect(svg).toContain('<rect x="102" y="54" width="6" height="8" rx="4" fill="#fff" stroke="#000" stroke-width="3" stroke-dasharray="6 4"/>');
    expect(svg).toContain('<text x="120" y="70" font-size="24"');
    expect(svg).toMatch(/<path d="M100,50L110,60" fill="none" stroke="red" stroke-width="2"/);
    expect(p.measure('abcd', 10)).toBeCloseTo(inner.measure('abcd', 10), 9); // SVG measure is linear in size
    expect(p.width).toBe(500);
  });
});
