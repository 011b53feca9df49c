/**
 * Renders the fidelity report (docs/fidelity.md) from evaluated reproductions: a summary table
 * (one line per reproduction: cells that agree, checks that pass), then per reproduction its
 * cells (paper, lab, ratio, verdict), its checks and the mechanism note. Pure: text in, text out.
 * Nothing from a run is interpreted as markup beyond numbers and the fixed labels written here.
 */
import { fmt } from './cells';
import type { ReproductionResult } from './types';

export interface ReportMeta {
  /** e.g. "2026-11-24", given by the caller (simulated code never reads the clock) */
  date: string;
  /** e.g. "node v20.19.0, 2 CPUs" */
  host: string;
  /** the git commit the report was produced from, when known */
  commit?: string;
  /** the whole report's host cost, when the caller measured it: distinct runs, runs at once, wall and CPU time (ms; CPU of every thread) */
  cost?: { runs: number; jobs: number; wallMs: number; cpuMs: number };
}

function esc(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The one-line summary of a reproduction: "3/24 cells agree, 5/9 checks pass". */
export function summaryOf(r: ReproductionResult): { agree: number; cells: number; pass: number; checks: number } {
  return {
    agree: r.cells.filter((c) => c.verdict === 'agrees').length,
    cells: r.cells.length,
    pass: r.checks.filter((c) => c.pass).length,
    checks: r.checks.length,
  };
}

export function renderReport(results: ReproductionResult[], meta: ReportMeta, notes: Record<string, string> = {}): string {
  const out: string[] = [];
  out.push('# Fidelity report: the lab beside the papers');
  out.push('');
  out.push(
    `Produced by \`npm run fidelity\` (\`manycore fidelity\`) on ${meta.date}${meta.commit ? ` at commit ${meta.commit}` : ''} (${meta.host}). Every number below comes from a run of the lab's engine with the experiment named in the section; paper values are the papers' own, with the line in \`../shared/papers/\`. Nothing in the lab is fitted to them.`,
  );
  out.push('');
  out.push('Verdicts compare lab / paper: **agrees** within 25 % either way, **within 2x**, **off** beyond that. Checks are the trends the issue asks the mechanism to give (pass or fail). In several tables the chip\'s absolute times are several times the lab\'s; where the shape agrees and the level does not, the note under the table names the mechanism it points to.');
  out.push('');
  out.push('## Summary');
  out.push('');
  out.push('| reproduction | source | cells agreeing | checks passing | run time |');
  out.push('| --- | --- | --- | --- | --- |');
  let agree = 0;
  let cells = 0;
  let pass = 0;
  let checks = 0;
  for (const r of results) {
    const s = summaryOf(r);
    agree += s.agree;
    cells += s.cells;
    pass += s.pass;
    checks += s.checks;
    out.push(`| [${esc(r.title)}](#${r.id}) | ${esc(r.source.split(';')[0]!)} | ${r.error ? 'failed' : `${s.agree} / ${s.cells}`} | ${r.error ? 'failed' : `${s.pass} / ${s.checks}`} | ${fmt(r.wallMs / 1000)} s |`);
  }
  out.push(`| **all** | | **${agree} / ${cells}** | **${pass} / ${checks}** | ${fmt(results.reduce((a, r) => a + r.wallMs, 0) / 1000)} s |`);
  out.push('');
  out.push(
    `Run time is the host wall time of a reproduction's runs added up (a run that two reproductions share counts in both).${
      meta.cost ? ` The whole report: ${meta.cost.runs} distinct runs, ${meta.cost.jobs} at once, ${fmt(meta.cost.wallMs / 1000)} s wall, ${fmt(meta.cost.cpuMs / 1000)} s CPU.` : ''
    }`,
  );
  out.push('');
  for (const r of results) {
    out.push(`<a id="${r.id}"></a>`);
    out.push(`## ${esc(r.title)}`);
    out.push('');
    out.push(`Source: ${esc(r.source)}. Kind: ${r.kind}.`);
    out.push('');
    if (r.error) {
      out.push(`**The runs failed:** ${esc(r.error)}`);
      out.push('');
      continue;
    }
    if (r.cells.length) {
      out.push('| cell | paper | lab | unit | lab / paper | verdict |');
      out.push('| --- | --- | --- | --- | --- | --- |');
      for (const c of r.cells) out.push(`| ${esc(c.label)} | ${fmt(c.paper)} | ${fmt(c.lab)} | ${esc(c.unit)} | ${fmt(c.ratio)} | ${c.verdict} |`);
      out.push('');
    }
    if (r.checks.length) {
      out.push('| check | result | lab | paper |');
      out.push('| --- | --- | --- | --- |');
      for (const c of r.checks) out.push(`| ${esc(c.label)} | ${c.pass ? 'pass' : '**fail**'} | ${esc(c.lab)} | ${esc(c.paper)} |`);
      out.push('');
    }
    out.push(`**Mechanism.** ${esc(notes[r.id] ?? r.mechanism)}`);
    out.push('');
    out.push(`<details><summary>${r.runs.length} run${r.runs.length === 1 ? '' : 's'} (digests)</summary>`);
    out.push('');
    for (const run of r.runs) out.push(`- \`${esc(run.workload)} ${esc(JSON.stringify(run.params))}\`: ${run.digest}, ${fmt(run.wallMs / 1000)} s`);
    out.push('');
    out.push('</details>');
    out.push('');
  }
  return out.join('\n');
}
