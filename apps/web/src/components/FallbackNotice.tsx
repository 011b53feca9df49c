/**
 * The notice of the fallback mode (replaces the old IsolationPanel, which stopped the lab): the
 * page is not cross-origin isolated, so the browser gives it no SharedArrayBuffer and the lab
 * runs every simulated core in one Web Worker (workers/fallback-host.ts). Says what is slower,
 * why, that results are the same, and how to get the fast mode. Plain text only.
 */
import { useState } from 'react';

/** Why the worker layout is fixed in the fallback (the Editor's disabled cores-per-worker setting). */
export const FALLBACK_WORKERS_REASON =
  'Fixed at one Web Worker for every core: this page is not cross-origin isolated, so the browser has no SharedArrayBuffer for several workers to share the chip.';

export function FallbackNotice({ compact = false }: { compact?: boolean }) {
  const [open, setOpen] = useState(false);
  const secure = typeof window !== 'undefined' && window.isSecureContext;
  if (compact)
    return (
      <p className="fallback-notice compact" role="note" data-testid="fallback-notice">
        Fallback mode: one worker runs every core (this page is not cross-origin isolated, so it has no SharedArrayBuffer). Same results, slower.
      </p>
    );
  return (
    <section className="banner fallback-notice" role="note" aria-labelledby="fallback-title" data-testid="fallback-notice">
      <p>
        <strong id="fallback-title">Fallback mode: same results, slower.</strong> This page is not <em>cross-origin isolated</em>, so the browser gives it no{' '}
        <code>SharedArrayBuffer</code>. Instead of one Web Worker per simulated core (or per CPU) sharing the chip&apos;s memory, one worker runs every core and copies the chip&apos;s
        state to the page after each slice of about 12 ms. Runs give the same results and digests as the fast mode; they take longer on a machine with several CPUs, and the worker
        layout setting is fixed. For the fast mode, serve the lab with the COOP/COEP headers (<code>npm start</code> does).{' '}
        <button type="button" className="small link" aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="fallback-how">
          {open ? 'Hide the details' : 'How to get the fast mode'}
        </button>
      </p>
      {open ? (
        <div data-testid="isolation-panel">
          <ul>
            <li>
              Start the lab with <code>npm start</code> (or <code>npm run -w apps/web dev</code>): both serve it with the right headers.
              {secure ? '' : ' This page is not a secure context either: use https:// or http://localhost.'}
            </li>
            <li>
              Serving it yourself? Every response needs these two headers (see apps/web/README.md for nginx, Caddy and static hosts):
              <pre>{'Cross-Origin-Opener-Policy: same-origin\nCross-Origin-Embedder-Policy: require-corp'}</pre>
            </li>
            <li>Opened inside a frame of another site? Open it in its own tab.</li>
          </ul>
          <p className="sub">
            crossOriginIsolated = {String(typeof window !== 'undefined' && window.crossOriginIsolated)} · SharedArrayBuffer{' '}
            {typeof SharedArrayBuffer === 'function' ? 'exists' : 'is missing'}
          </p>
        </div>
      ) : null}
    </section>
  );
}
