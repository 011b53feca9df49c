/** The glossary panel: every term of lib/glossary.ts, alphabetically. */
import { GLOSSARY, TERM_IDS } from '../lib/glossary';

export function Glossary({ onClose }: { onClose(): void }) {
  const ids = [...TERM_IDS].sort((a, b) => GLOSSARY[a].term.localeCompare(GLOSSARY[b].term, 'en', { sensitivity: 'base' }));
  return (
    <section className="card glossary" data-testid="glossary" aria-labelledby="glossary-title">
      <div className="glossary-head">
        <h2 id="glossary-title">Glossary</h2>
        <button type="button" className="small" onClick={onClose} data-testid="glossary-close">
          Close
        </button>
      </div>
      <dl>
        {ids.map((id) => (
          <div key={id} className="glossary-entry">
            <dt id={`glossary-${id}`}>{GLOSSARY[id].term}</dt>
            <dd>{GLOSSARY[id].definition}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
