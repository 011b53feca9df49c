/**
 * The guided-experiments gallery: every entry of the workloads package's registry (the same
 * list as `manycore guided list`), grouped by workload family or chip. A single run loads into
 * the lab (and runs); a sweep runs here in one click, drawing its curve as the points arrive.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { WorkloadRegistry } from '@manycore/engine';
import { familyOf, guidedExperiments, type GuidedExperiment } from '@manycore/workloads';
import { browserHost } from '@manycore/workers/browser-host';
import { EmbedCode } from '../components/EmbedCode';
import { SweepPanel } from '../components/SweepPanel';
import { hostCpus } from '../lib/workers';

const host = () => browserHost();
const CPUS = hostCpus();

function chipLabel(g: GuidedExperiment): string {
  const chips = new Set(
    g.experiments.map((e) => {
      const c = e.chip as { preset?: string; overrides?: { mesh?: { width?: number; height?: number } } } | undefined;
      const preset = c?.preset ?? 'scc';
      if (preset === 'mesh') return `${(c?.overrides?.mesh?.width ?? 0) * (c?.overrides?.mesh?.height ?? 0) * 2}-core mesh`;
      return preset === 'tile64' ? 'TILE64' : preset === 'scc' ? 'SCC' : preset;
    }),
  );
  return [...chips].join(', ');
}

export function Gallery({ registry, onLoad }: { registry: WorkloadRegistry; onLoad(g: GuidedExperiment, run: boolean): void }) {
  const [sweep, setSweep] = useState<GuidedExperiment | null>(null);
  const [round, setRound] = useState(0);
  const panel = useRef<HTMLDivElement>(null);
  const groups = useMemo(() => {
    const out = new Map<string, GuidedExperiment[]>();
    for (const g of guidedExperiments) out.set(familyOf(g), [...(out.get(familyOf(g)) ?? []), g]);
    return [...out.entries()];
  }, []);
  const startSweep = useCallback((g: GuidedExperiment) => {
    setSweep(g);
    setRound((n) => n + 1);
  }, []);
  useEffect(() => {
    if (sweep) panel.current?.scrollIntoView?.({ block: 'nearest' });
  }, [sweep, round]);

  return (
    <div className="gallery" data-testid="gallery">
      <p className="lead">
        Guided experiments: each loads a ready-made experiment into the lab, or runs a whole sweep here and draws its curve as the runs finish. Look for what the card describes; where a paper
        measured the same quantity its values are drawn beside the lab's. The same list runs headlessly with <code>manycore guided run ID</code>.
      </p>
      <div ref={panel}>{sweep ? <SweepPanel key={`${sweep.id}-${round}`} entry={sweep} registry={registry} host={host} hostCpus={CPUS} onClose={() => setSweep(null)} /> : null}</div>
      {groups.map(([family, entries]) => (
        <section key={family} className="gallery-group" aria-labelledby={`family-${family.replace(/\W+/g, '-')}`}>
          <h2 id={`family-${family.replace(/\W+/g, '-')}`}>{family}</h2>
          <div className="gallery-grid">
            {entries.map((g) => {
              const known = g.experiments.every((e) => !!registry[String(e.workload.name)]);
              const runs = g.experiments.length;
              const active = sweep?.id === g.id;
              return (
                <article key={g.id} className={active ? 'card gallery-card active' : 'card gallery-card'} data-testid={`gallery-${g.id}`}>
                  <h3>{g.title}</h3>
                  <p>{g.summary}</p>
                  <h4>What to look for</h4>
                  <ul>
                    {g.whatToLookFor.map((w, i) => (
                      <li key={i}>{w}</li>
                    ))}
                  </ul>
                  <p className="sub">
                    {chipLabel(g)} · {[...new Set(g.experiments.map((e) => String(e.workload.name)))].join(', ')} · {runs} run{runs === 1 ? '' : 's'}
                    {g.sweep ? ` over ${g.sweep.param}` : ''}
                    {g.paper ? ' · paper values' : ''}
                    {g.source ? ` · ${g.source}` : ''}
                  </p>
                  <div className="buttons">
                    {runs > 1 ? (
                      <>
                        <button type="button" className="primary" disabled={!known} onClick={() => startSweep(g)} data-testid={`sweep-${g.id}`}>
                          ▶ Run sweep ({runs} runs)
                        </button>
                        <button type="button" disabled={!known} onClick={() => onLoad(g, false)} data-testid={`gallery-load-${g.id}`} title="Load the first run of the sweep into the lab">
                          Load first run
                        </button>
                      </>
                    ) : (
                      <>
                        <button type="button" className="primary" disabled={!known} onClick={() => onLoad(g, true)} data-testid={`gallery-run-${g.id}`}>
                          ▶ Load and run
                        </button>
                        <button type="button" disabled={!known} onClick={() => onLoad(g, false)} data-testid={`gallery-load-${g.id}`}>
                          Load
                        </button>
                      </>
                    )}
                  </div>
                  <EmbedCode entry={g} />
                </article>
              );
            })}
          </div>
        </section>
      ))}
    </div>
  );
}
