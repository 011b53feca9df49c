/**
 * A link that proves itself: the results digest a shared link says its run produced, and after
 * this tab's run of the same experiment, whether the new digest matches. Shown only while the
 * draft is the linked experiment unchanged (editing it, or changing the run mid-way, drops the
 * claim: a different experiment has no reason to give the same digest).
 */
import { Term } from './Term';

export type DigestCheck = { state: 'pending' } | { state: 'match'; digest: string } | { state: 'differs'; digest: string } | { state: 'changed' };

/** Compares the link's digest with a run's: pending until the run finishes with results. */
export function checkDigest(expected: string, run: { digest: string | null; sameExperiment: boolean }): DigestCheck {
  if (!run.sameExperiment) return { state: 'changed' };
  if (run.digest === null) return { state: 'pending' };
  return run.digest === expected ? { state: 'match', digest: run.digest } : { state: 'differs', digest: run.digest };
}

export function LinkDigest({ expected, check }: { expected: string; check: DigestCheck }) {
  return (
    <p className={`link-digest link-digest-${check.state}`} data-testid="link-digest" data-state={check.state} role="status">
      {check.state === 'match' ? (
        <>
          <span aria-hidden="true">✓ </span>Reproduced: this run&apos;s digest <code>{check.digest}</code> matches the link&apos;s.
        </>
      ) : check.state === 'differs' ? (
        <>
          <span aria-hidden="true">✗ </span>Not reproduced: the link says <code>{expected}</code>, this run gave <code>{check.digest}</code>. The same experiment
          should give the same digest on any machine: please report it with both links.
        </>
      ) : check.state === 'changed' ? (
        <>
          The link&apos;s run gave digest <code>{expected}</code>; this run changed the experiment (a what-if during the run), so its digest is not comparable.
        </>
      ) : (
        <>
          The link&apos;s run gave <Term id="digest" /> <code data-testid="link-digest-expected">{expected}</code>: run it to check that this tab reproduces it.
        </>
      )}
    </p>
  );
}
