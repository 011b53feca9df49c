import { describe, expect, it } from 'vitest';
import { guidedById } from '@manycore/workloads';
import { controlChoices, embedControlOf, embedIdFrom, embedSnippet, embedUrl, embedView, labUrl, parseParamValue } from './embed';

describe('embed URLs', () => {
  it('reads the guided id from ?embed= or #/embed/, and nothing else', () => {
    expect(embedIdFrom('?embed=pingpong-hops', '')).toBe('pingpong-hops');
    expect(embedIdFrom('?cpw=2&embed=dram-stream', '#x=abc')).toBe('dram-stream');
    expect(embedIdFrom('', '#/embed/memtest-hops')).toBe('memtest-hops');
    expect(embedIdFrom('', '#/embed/a%20b')).toBe('a b');
    expect(embedIdFrom('', '#x=abc')).toBeNull();
    expect(embedIdFrom('?cpw=2', '')).toBeNull();
  });

  it('builds the embed and lab URLs from the page, dropping its query and hash', () => {
    expect(embedUrl('https://lab.example/manycore/?cpw=2#x=abc', 'pingpong-hops')).toBe('https://lab.example/manycore/?embed=pingpong-hops');
    expect(embedUrl('http://127.0.0.1:4173/', 'a&b')).toBe('http://127.0.0.1:4173/?embed=a%26b');
    expect(labUrl('https://lab.example/manycore/?embed=x')).toBe('https://lab.example/manycore/');
  });

  it('gives an iframe snippet with escaped attributes, a title and lazy loading', () => {
    const s = embedSnippet('https://lab.example/?embed=x&y=1', 'Quotes "and" <tags>');
    expect(s).toBe(
      '<iframe src="https://lab.example/?embed=x&amp;y=1" title="Manycore Lab: Quotes &quot;and&quot; &lt;tags&gt;" width="760" height="620" loading="lazy" style="border: 1px solid #ccc; border-radius: 6px"></iframe>',
    );
  });
});

describe('the one control of an embed', () => {
  it('is the declared control, else the first swept parameter, else none', () => {
    const sweep = guidedById('pingpong-hops')!;
    expect(embedControlOf(sweep)).toEqual({ param: 'hops' });
    expect(controlChoices(sweep, { param: 'hops' })).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const stream = guidedById('dram-stream')!;
    expect(embedControlOf(stream)).toEqual({ islandDivisor: 0 });
    expect(controlChoices(stream, { islandDivisor: 0 })).toBeNull();
    expect(embedControlOf(guidedById('stale-read')!)).toBeNull();
    expect(embedControlOf({ ...sweep, embed: { control: null } })).toBeNull();
  });

  it('shows the chart of a sweep (more than one run) unless the entry says otherwise, else the chip view', () => {
    const sweep = guidedById('pingpong-hops')!;
    expect(sweep.experiments).toHaveLength(8);
    expect(embedView(sweep)).toBe('chart');
    expect(embedView({ ...sweep, embed: { view: 'chip' } })).toBe('chip');
    expect(embedView(guidedById('dram-stream')!)).toBe('chip');
    expect(embedView({ ...guidedById('dram-stream')!, embed: { view: 'chart' } })).toBe('chart');
    expect(embedView(guidedById('bug-lock-prefix')!)).toBe('chip'); // a control, one run
    expect(embedView(guidedById('bug-lock-prefix-cores')!)).toBe('chart');
  });

  it('reads typed values as numbers, booleans or text', () => {
    expect(parseParamValue(' 12 ')).toBe(12);
    expect(parseParamValue('true')).toBe(true);
    expect(parseParamValue('snake')).toBe('snake');
    expect(parseParamValue('')).toBe('');
  });
});
