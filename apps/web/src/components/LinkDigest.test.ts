import { describe, expect, it } from 'vitest';
import { checkDigest } from './LinkDigest';

describe('checkDigest', () => {
  it('is pending until the run has a digest, then says whether it matches', () => {
    expect(checkDigest('00000000000000aa', { digest: null, sameExperiment: true })).toEqual({ state: 'pending' });
    expect(checkDigest('00000000000000aa', { digest: '00000000000000aa', sameExperiment: true })).toEqual({ state: 'match', digest: '00000000000000aa' });
    expect(checkDigest('00000000000000aa', { digest: '00000000000000ab', sameExperiment: true })).toEqual({ state: 'differs', digest: '00000000000000ab' });
  });
  it('does not compare a run whose experiment changed during the run', () => {
    expect(checkDigest('00000000000000aa', { digest: '00000000000000ab', sameExperiment: false })).toEqual({ state: 'changed' });
  });
});
