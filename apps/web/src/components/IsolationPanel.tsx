/** Shown instead of the lab when the page is not cross-origin isolated (no SharedArrayBuffer). */
export function IsolationPanel() {
  const secure = window.isSecureContext;
  return (
    <section className="card isolation" role="alert" data-testid="isolation-panel">
      <h2>This page cannot run simulations yet</h2>
      <p>
        Manycore Lab runs every simulated core in its own Web Worker, and the workers share the chip's memory through <code>SharedArrayBuffer</code>. Browsers only
        allow that on pages that are <strong>cross-origin isolated</strong>, and this one is not
        {secure ? '' : ' (it is not even a secure context: use https:// or http://localhost)'}.
      </p>
      <h3>How to fix it</h3>
      <ul>
        <li>
          Start the lab with <code>npm start</code> (or <code>npm run -w apps/web dev</code>): both serve it with the right headers.
        </li>
        <li>
          Serving it yourself? Every response needs these two headers:
          <pre>
            {'Cross-Origin-Opener-Policy: same-origin\nCross-Origin-Embedder-Policy: require-corp'}
          </pre>
          See apps/web/README.md for nginx, Caddy and static hosts.
        </li>
        <li>Opened from another site inside a frame? Open it in its own tab.</li>
      </ul>
      <p className="sub">
        crossOriginIsolated = {String(window.crossOriginIsolated)} · SharedArrayBuffer {typeof SharedArrayBuffer === 'function' ? 'exists' : 'is missing'}
      </p>
    </section>
  );
}
