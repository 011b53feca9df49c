import { describe, expect, it } from 'vitest';
import { axisLabel, bytes, count, delta, fieldUnit, formatField, formatTick, freq, integer, joules, num, plural, simRate, simTime, size, timeUnit, watts } from './format';

describe('format', () => {
  it('formats numbers with 3 significant digits', () => {
    expect(num(0)).toBe('0');
    expect(num(1234.5)).toBe('1235');
    expect(num(12.345)).toBe('12.3');
    expect(num(0.5)).toBe('0.5');
    expect(num(2_500_000)).toBe('2.5M');
    expect(num(NaN)).toBe('–');
  });
  it('formats byte counts in whole KB and MB when exact', () => {
    expect([1, 512, 1024, 65536, 1 << 20, 1536].map(bytes)).toEqual(['1 B', '512 B', '1 KB', '64 KB', '1 MB', '1536 B']);
  });
  it('formats simulated time and picks axis units', () => {
    expect(simTime(500)).toBe('500 ns');
    expect(simTime(2500)).toBe('2.5 µs');
    expect(simTime(3_200_000)).toBe('3.2 ms');
    expect(timeUnit(5000)).toEqual({ div: 1000, label: 'µs' });
    expect(timeUnit(100)).toEqual({ div: 1, label: 'ns' });
  });
  it('formats power, energy, deltas and rates', () => {
    expect(watts(31.6)).toBe('31.6 W');
    expect(watts(0.25)).toBe('250 mW');
    expect(joules(0.0067)).toBe('6.7 mJ');
    expect(delta(10, 12)).toEqual({ abs: '+2', rel: '+20 %', sign: 1 });
    expect(delta(10, 9).rel).toBe('-10 %');
    expect(delta(0, 0).rel).toBe('0 %');
    expect(simRate(1000, 1000)).toBe('1 µs/s');
  });
  it('says 1 core and 2 cores, 1 more row and 3 more rows', () => {
    expect(count(1, 'core')).toBe('1 core');
    expect(count(48, 'core')).toBe('48 cores');
    expect(count(0, 'core')).toBe('0 cores');
    expect(plural(1, 'more row')).toBe('more row');
    expect(plural(3, 'more row')).toBe('more rows');
    expect(count(2, 'process')).toBe('2 processes');
    expect(count(2, 'mouse', 'mice')).toBe('2 mice');
    expect(integer(21901)).toBe('21901');
    expect(integer(576000)).toBe('576k');
    expect(count(1_250_000, 'flit')).toBe('1.25M flits');
  });
  it('reads the unit from the field name', () => {
    expect(['timeNs', 'latencyNs', 'nsPerLine', 'clockPs', 'intervalUs', 'wallMs', 'bytes', 'textBytes', 'avgPowerW', 'energyJ', 'freqMHz', 'volts', 'throughputMBps', 'controllerGBps', 'gflopsPerW', 'latencyCycles', 'flushShare', 'flitsPerUs', 'hops', 'items', 'status', 'steps', 'runs'].map(fieldUnit)).toEqual([
      'ns', 'ns', 'ns', 'ps', 'us', 'ms', 'bytes', 'bytes', 'W', 'J', 'MHz', 'V', 'MBps', 'GBps', 'perW', 'cycles', 'share', 'none', 'none', 'none', 'none', 'none', 'none',
    ]);
  });
  it('formats a value by the unit in its field name', () => {
    expect(formatField('timeNs', 709715)).toBe('709.7 µs');
    expect(formatField('kernelTimeNs', 69468161.875)).toBe('69.47 ms');
    expect(formatField('latencyNs', 132.734375)).toBe('132.7 ns');
    expect(formatField('clockPs', 2_500_000)).toBe('2.5 µs');
    expect(formatField('bufferBytes', 8192)).toBe('8 KB');
    expect(formatField('bytes', 1)).toBe('1 byte');
    expect(formatField('bytes', 32)).toBe('32 bytes');
    expect(formatField('messageBytes', 64544)).toBe('63.03 KB');
    expect(formatField('dataBytes', 4194304)).toBe('4 MB');
    expect(formatField('avgPowerW', 0.4377)).toBe('438 mW');
    expect(formatField('chipPowerW', 31.57)).toBe('31.6 W');
    expect(formatField('energyJ', 0.0067)).toBe('6.7 mJ');
    expect(formatField('freqMHz', 533.3333)).toBe('533.3 MHz');
    expect(formatField('freqMHz', 1066.67)).toBe('1.067 GHz');
    expect(formatField('volts', 0.8)).toBe('0.8 V');
    expect(formatField('throughputMBps', 27.838)).toBe('27.84 MB/s');
    expect(formatField('gflopsPerW', 0.10537)).toBe('0.1054 /W');
    expect(formatField('latencyCycles', 1)).toBe('1 cycle');
    expect(formatField('cycles', 48496360.5)).toBe('48.5M cycles');
    expect(formatField('flushShare', 0.25)).toBe('25 %');
    expect(formatField('phrases', 21901)).toBe('21901');
    expect(formatField('ipc', 0.17297)).toBe('0.173');
    expect(formatField('correct', true)).toBe('yes');
    expect(formatField('op', 'read')).toBe('read');
    expect(formatField('x', undefined)).toBe('');
  });
  it('formats sizes, frequencies and axis ticks', () => {
    expect([512, 1024, 1536, 1 << 20, 3 * (1 << 30)].map((b) => size(b))).toEqual(['512 B', '1 KB', '1.5 KB', '1 MB', '3 GB']);
    expect(freq(800)).toBe('800 MHz');
    expect(freq(1600)).toBe('1.6 GHz');
    expect(formatTick('bytes', 65536)).toBe('64 KB');
    expect(formatTick('timeNs', 2_000_000)).toBe('2 ms');
    expect(formatTick('latencyCycles', 150)).toBe('150');
  });
  it('labels an axis with the field and the unit its values are drawn in', () => {
    expect(axisLabel('kernelTimeNs')).toBe('kernelTimeNs (ns)');
    expect(axisLabel('sizeBytes')).toBe('sizeBytes (bytes)');
    expect(axisLabel('hops')).toBe('hops');
  });
});
