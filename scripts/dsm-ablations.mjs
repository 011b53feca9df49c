// The object runtime's ablations (paper 004 Table 6): for each application, the `dsm` workload
// with runtime=object and every switch on, then with each switch off in turn, printed beside
// Table 6's values with the lab / paper ratio and each column's factor vs full (the trend the
// paper reports). Too long for the unit suite: a script. Bundles the workloads with esbuild into
// a private temporary directory (not the shared packages/cli/dist), so it needs no lock.
// Usage: node scripts/dsm-ablations.mjs [apps=barnes-hut,water-spatial,water-nsq] [size=paper-lg] [processors=32]
// Prints one JSON line per run (with wall and CPU seconds), then a markdown table.
import { loadPackages } from './load-packages.mjs';

const { Simulation, workloads } = await loadPackages('dsm-ablations');

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=')));
const apps = (args.apps ?? 'barnes-hut,water-spatial,water-nsq').split(',');
const size = args.size ?? 'paper-lg';
const processors = Number(args.processors ?? 32);

const CONFIGS = [
  ['full', {}],
  ['no read aggr.', { readAggregation: false }],
  ['no lazy alloc.', { lazyAllocation: false }],
  ['no write aggr.', { writeAggregation: false }],
  ['no WN reduction', { writeNoticeReduction: false }],
];
// paper 004 Table 6 (lines 433-456; ../shared/reference/dsm.md section 6), 32 processors, large inputs:
// columns full, no read aggregation, no lazy allocation, no write aggregation, no write-notice reduction
const T6 = {
  'barnes-hut': { timeS: [45.07, 139.88, 50.9, 46.05, 49.56], dataMB: [245.8, 124.7, 251.7, 246.2, 277.4], wnM: [6.42, 6.42, 6.42, 6.42, 35.4], messages: [1027903, 2254374, 1612276, 1027944, 1027991], overlapped: [341303, 1123734, 428537, 341303, 341303], memMB: [3.35, 3.35, 23.2, 3.35, 3.35], writeFaults: [27586, 28248, 163865, 582533, 27728] },
  'water-spatial': { timeS: [8.52, 10.54, 10.07, 8.54, 8.75], dataMB: [166.8, 166.0, 167.2, 166.7, 169.4], wnM: [0.74, 0.74, 0.74, 0.74, 3.3], messages: [109560, 478674, 183965, 109560, 109558], overlapped: [41486, 238341, 72664, 41491, 41490], memMB: [2.64, 2.64, 22.5, 2.64, 2.64], writeFaults: [20989, 20777, 35277, 110864, 21062] },
  'water-nsq': { timeS: [9.58, 11.74, 9.58, 9.58, 9.58], dataMB: [181.3, 183.2, 181.8, 181.4, 181.6], wnM: [0.81, 0.81, 0.81, 0.81, 0.97], messages: [101098, 530783, 101228, 101116, 101108], overlapped: [44758, 261669, 44874, 44770, 44757], memMB: [1.04, 1.04, 1.89, 1.04, 1.04], writeFaults: [16953, 87498, 16978, 96589, 16968] },
};
// lab row field -> [label, paper key, lab value -> paper unit]
const METRICS = [
  ['time (s)', 'timeS', (r) => r.timeNs / 1e9],
  ['data (MB)', 'dataMB', (r) => r.bytes / 1e6],
  ['write notices (M)', 'wnM', (r) => r.writeNotices / 1e6],
  ['messages', 'messages', (r) => r.messages],
  ['overlapped req.', 'overlapped', (r) => r.overlappedRequests],
  ['mem. allocated (MB)', 'memMB', (r) => r.allocatedPerProcessorBytes / 1e6],
  ['write faults', 'writeFaults', (r) => r.writeFaults],
];

const results = {};
for (const app of apps) {
  results[app] = [];
  for (const [name, sw] of CONFIGS) {
    const params = { app, runtime: 'object', processors, size, ...sw };
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    let row;
    try {
      row = new Simulation({ version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm', params }, seed: 1 }, workloads).runInline().workload.rows[0];
    } catch (e) {
      row = { error: String(e).slice(0, 300) };
    }
    const cpu = process.cpuUsage(cpu0);
    const out = { app, config: name, wallS: Math.round((performance.now() - t0) / 100) / 10, cpuS: Math.round((cpu.user + cpu.system) / 1e5) / 10, row };
    console.log(JSON.stringify(out));
    results[app].push(row);
  }
}

const fmt = (v) => (Math.abs(v) >= 1000 ? String(Math.round(v)) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toPrecision(3));
console.log(`\n## Object-runtime ablations, ${size}, ${processors} processors, cluster-1999 (lab | paper Table 6 | lab/paper; "x" = factor vs full, lab / paper)\n`);
for (const app of apps) {
  const rows = results[app];
  console.log(`\n### ${app} (correct: ${rows.map((r) => r.correct).join(', ')})\n`);
  console.log(`| metric | ${CONFIGS.map((c) => c[0]).join(' | ')} |`);
  console.log(`| --- |${CONFIGS.map(() => ' --- |').join('')}`);
  for (const [label, key, get] of METRICS) {
    const paper = T6[app]?.[key];
    const cells = rows.map((r, k) => {
      if (r.error) return 'error';
      const lab = get(r);
      if (!paper) return fmt(lab);
      const ratio = lab / paper[k];
      const f = k === 0 ? '' : ` (x ${(lab / get(rows[0])).toFixed(2)} / ${(paper[k] / paper[0]).toFixed(2)})`;
      return `${fmt(lab)} / ${fmt(paper[k])} = ${ratio.toFixed(2)}${f}`;
    });
    console.log(`| ${label} | ${cells.join(' | ')} |`);
  }
}
