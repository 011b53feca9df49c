/** The guided-experiments gallery: data from gallery/entries.ts, one click to load and run. */
import type { WorkloadRegistry } from '@manycore/engine';
import { GALLERY, type GuidedExperiment } from '../gallery/entries';

export function Gallery({ registry, onLoad }: { registry: WorkloadRegistry; onLoad(g: GuidedExperiment, run: boolean): void }) {
  return (
    <div className="gallery" data-testid="gallery">
      <p className="lead">Guided experiments: each loads a ready-made experiment into the lab. Run it and look for what the card describes.</p>
      <div className="gallery-grid">
        {GALLERY.map((g) => {
          const known = !!registry[String(g.experiment.workload.name)];
          return (
            <article key={g.id} className="card gallery-card" data-testid={`gallery-${g.id}`}>
              <h3>{g.title}</h3>
              <p>{g.summary}</p>
              <h4>What to look for</h4>
              <ul>
                {g.whatToLookFor.map((w, i) => (
                  <li key={i}>{w}</li>
                ))}
              </ul>
              <p className="sub">workload: {String(g.experiment.workload.name)}</p>
              <div className="buttons">
                <button type="button" className="primary" disabled={!known} onClick={() => onLoad(g, true)} data-testid={`gallery-run-${g.id}`}>
                  ▶ Load and run
                </button>
                <button type="button" disabled={!known} onClick={() => onLoad(g, false)} data-testid={`gallery-load-${g.id}`}>
                  Load
                </button>
              </div>
            </article>
          );
        })}
      </div>
    </div>
  );
}
