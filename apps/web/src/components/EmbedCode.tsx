/**
 * "Copy embed code" for a guided experiment: builds the `<iframe>` text of the entry's embed URL
 * (lib/embed.ts), shows it in a read-only field and copies it to the clipboard. Text only:
 * nothing is injected as HTML.
 */
import { useState } from 'react';
import type { GuidedExperiment } from '@manycore/workloads';
import { embedSnippet, embedUrl } from '../lib/embed';

export function EmbedCode({ entry, pageUrl }: { entry: GuidedExperiment; pageUrl?: string }) {
  const [shown, setShown] = useState<{ code: string; copied: boolean } | null>(null);
  const copy = async () => {
    const code = embedSnippet(embedUrl(pageUrl ?? window.location.href, entry.id), entry.title);
    let copied = false;
    try {
      await navigator.clipboard.writeText(code);
      copied = true;
    } catch {
      copied = false;
    }
    setShown({ code, copied });
  };
  return (
    <div className="embed-code">
      <button type="button" className="small" onClick={() => void copy()} data-testid={`embed-copy-${entry.id}`} title="An <iframe> to paste into a course page: this experiment with run/pause and its one control">
        Copy embed code
      </button>
      {shown ? (
        <label className="share-url">
          <span>{shown.copied ? 'Copied:' : 'Copy this code:'}</span>
          <textarea readOnly rows={3} value={shown.code} onFocus={(e) => e.currentTarget.select()} data-testid={`embed-code-${entry.id}`} />
        </label>
      ) : null}
    </div>
  );
}
