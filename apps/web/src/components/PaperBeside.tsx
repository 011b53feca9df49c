/**
 * The paper beside the lab: when a finished run is one of the fidelity report's reproductions
 * (e.g. one cell of the pipeline paper's Table I), its paper values, the lab's and the ratio,
 * with the mechanism note. Data from @manycore/workloads' `paperBeside` (pure); text only.
 */
import { useMemo } from 'react';
import type { ExperimentInput, Results } from '@manycore/engine';
import { paperBeside, reproductions, workloads } from '@manycore/workloads';
import { num } from '../lib/format';

export function PaperBesidePanel({ results }: { results: Results }) {
  const found = useMemo(
    () => paperBeside(reproductions, workloads, results.experiment as unknown as ExperimentInput, results.workload.rows),
    [results],
  );
  if (!found.length) return null;
  return (
    <div className="paper-beside" data-testid="paper-beside">
      {found.map((f) => (
        <div key={f.reproduction}>
          <h4>The paper beside the lab: {f.title}</h4>
          <p className="sub">{f.source}</p>
          <table className="rows">
            <thead>
              <tr>
                <th scope="col">cell</th>
                <th scope="col">paper</th>
                <th scope="col">lab</th>
                <th scope="col">lab / paper</th>
                <th scope="col">verdict</th>
              </tr>
            </thead>
            <tbody>
              {f.cells.map((c) => (
                <tr key={c.label} data-testid="paper-cell">
                  <td>{c.label}</td>
                  <td>
                    {num(c.paper!, 4)} {c.unit}
                  </td>
                  <td>
                    {num(c.lab!, 4)} {c.unit}
                  </td>
                  <td>{c.ratio === null ? 'n/a' : num(c.ratio, 3)}</td>
                  <td>{c.verdict}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="sub">{f.mechanism}</p>
        </div>
      ))}
    </div>
  );
}
