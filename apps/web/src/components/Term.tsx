/**
 * A glossary term where it appears: underlined with dots; hovering or focusing it (Tab) shows
 * the definition from lib/glossary.ts in a tooltip (role=tooltip, linked by aria-describedby).
 * The definition is text only.
 */
import { useId, type ReactNode } from 'react';
import { GLOSSARY, type TermId } from '../lib/glossary';

export function Term({ id, children }: { id: TermId; children?: ReactNode }) {
  const tip = useId();
  const entry = GLOSSARY[id];
  return (
    <span className="term" tabIndex={0} aria-describedby={tip} data-testid={`term-${id}`}>
      {children ?? entry.term}
      <span className="term-tip" role="tooltip" id={tip}>
        <strong>{entry.term}</strong>: {entry.definition}
      </span>
    </span>
  );
}
