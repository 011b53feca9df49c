import { describe, expect, it } from 'vitest';
import { DsmRecorder, FIRST_SLICE_PS, K_BARRIER, K_COMPUTE, K_FAULT, K_SERVE, SLICES, SPAN_CAP } from './record';

const clock = { now: 0 };
const rec = () => {
  clock.now = 1000;
  const r = new DsmRecorder(clock, 3);
  r.begin();
  return r;
};
const at = (t: number) => (clock.now = t);

describe('DsmRecorder (the DSM views\' recording)', () => {
  it('records contiguous spans by kind, merges a kind resumed at once and drops zero-length spans', () => {
    const r = rec();
    at(1500);
    let k = r.enter(K_FAULT);
    r.leave(k); // a fault check without a fault: nothing
    at(2000);
    k = r.enter(K_FAULT);
    at(2600);
    const k2 = r.enter(K_SERVE); // nested
    at(2700);
    r.leave(k2);
    at(3000);
    r.leave(k);
    at(4000);
    r.enter(K_BARRIER);
    at(5000);
    r.leave(K_COMPUTE);
    at(5000);
    r.finish();
    const row = r.toRow();
    expect(row.spans).toBe('0:1000:2000 1:2000:2600 4:2600:2700 1:2700:3000 0:3000:4000 3:4000:5000');
    expect(row.kindPs).toBe('2000 900 0 1000 100');
    expect([row.beganPs, row.finishedPs, row.moreSpans]).toEqual([1000, 5000, 0]);
  });

  it('keeps the first SPAN_CAP spans and counts the rest; the time per kind and the slices count them all', () => {
    const r = rec();
    for (let i = 0; i < SPAN_CAP + 10; i++) {
      at(clock.now + 100);
      r.enter(i % 2 ? K_COMPUTE : K_FAULT);
    }
    at(clock.now + 100);
    r.finish();
    expect([r.spans, r.moreSpans]).toEqual([SPAN_CAP, 11]);
    const total = r.kindPs.reduce((a, b) => a + b, 0);
    expect(total).toBe(100 * (SPAN_CAP + 11));
    expect(r.slices.reduce((a, b) => a + b, 0)).toBe(total);
  });

  it('doubles the slice width as the run grows, keeping every ps in the right slice', () => {
    const r = rec();
    at(1000 + FIRST_SLICE_PS * SLICES * 3); // three times the first span of slices: two doublings
    r.enter(K_BARRIER);
    at(clock.now + FIRST_SLICE_PS * 4);
    r.finish();
    expect(r.slicePs).toBe(FIRST_SLICE_PS * 4);
    const K = 5;
    // compute fills the first 3/4 of the slices, the barrier the next one
    expect(r.slices[0 * K + K_COMPUTE]).toBe(FIRST_SLICE_PS * 4);
    expect(r.slices[(0.75 * SLICES - 1) * K + K_COMPUTE]).toBe(FIRST_SLICE_PS * 4);
    expect(r.slices[0.75 * SLICES * K + K_COMPUTE]).toBe(0);
    expect(r.slices[0.75 * SLICES * K + K_BARRIER]).toBe(FIRST_SLICE_PS * 4);
  });

  it('counts write notices per receiver and datagrams per type only while recording', () => {
    const r = new DsmRecorder(clock, 3);
    r.notices(5);
    r.sendingTo(1); // before begin: not counted
    r.sent(4, 68);
    r.begin();
    r.notices(2);
    r.notices(3);
    r.sendingTo(2);
    r.sendingTo(1); // a message without notices
    r.sent(4, 72);
    r.sent(16, 16);
    r.sent(16, 20);
    r.finish();
    const row = r.toRow();
    expect(row.noticesTo).toBe('0 0 5');
    expect(row.msgTypes).toBe('4:1:72 16:2:36'); // type:datagrams:bytes, only while recording
  });
});
