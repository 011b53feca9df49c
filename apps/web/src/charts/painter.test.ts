import { describe, expect, it } from 'vitest';
import { line } from 'd3';
import { escapeXml, SvgPainter } from './painter';

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
