/**
 * The work of a sweep for an existing scheduler (`manycore sweep --emit slurm|k8s`): the text
 * of a Slurm job-array script and of a Kubernetes Indexed Job manifest (with the points in a
 * ConfigMap), each task running `manycore run --experiment <point> --out <results>` on one
 * point. Pure: text from the spec and the options; sweep.ts writes it.
 *
 * Contract shared with the local sweep: point i's experiment is `points/NNNN.json` (NNNN =
 * printf %04d i), its results `results/NNNN.json` (the `manycore run --out` results JSON,
 * written only when the run succeeds) and a failure's stderr `results/NNNN.error.txt`; so
 * `manycore sweep` (the same spec) or `manycore sweep --merge DIR` merges what the array wrote.
 */
import { createHash } from 'node:crypto';
import { UsageError } from './args';
import { canonical, pointFile, type SweepPoint, type SweepSpec } from './sweep-spec';

/** The image the Job runs when --image is not given: built from this repository, with `manycore` on its PATH (README, "The CLI"). */
export const K8S_DEFAULT_IMAGE = 'manycore-lab:latest';
/** The PersistentVolumeClaim the Job writes results to when --results-claim is not given. */
export const K8S_DEFAULT_CLAIM = 'manycore-results';
/** Where the pod sees the points (the ConfigMap) and the results volume. */
export const K8S_POINTS_PATH = '/sweep/points';
export const K8S_RESULTS_PATH = '/sweep/results';
/** A ConfigMap holds at most 1 MiB (etcd's limit); the points must fit with room for the metadata. */
export const CONFIGMAP_MAX_BYTES = 1_000_000;

/** Quotes `s` for a POSIX shell (single quotes). */
export function shq(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The text of a point file (pretty JSON with a final newline; the ConfigMap holds the same). */
export function pointText(p: SweepPoint): string {
  return JSON.stringify(p.experiment, null, 2) + '\n';
}

/** A short name for the sweep, from its spec: manycore-sweep-<8 hex> (a DNS label, so a Job and a ConfigMap name). */
export function sweepName(spec: SweepSpec): string {
  const h = createHash('sha256').update(canonical({ base: spec.base, vary: spec.vary })).digest('hex');
  return `manycore-sweep-${h.slice(0, 8)}`;
}

function summaryLine(spec: SweepSpec): string {
  return `${spec.points.length} points of ${spec.base.workload.name} on ${spec.base.chip.preset}, varying ${spec.vary.map((v) => `${v.path} (${v.values.length})`).join(' x ')}`;
}

/**
 * The Slurm script: a job array with one task per point. `dir` is the sweep's absolute
 * directory; `manycore` the command (already shell-quoted words) that runs the CLI on the nodes.
 */
export function slurmScript(spec: SweepSpec, dir: string, manycore: string): string {
  const d = (rel: string) => shq(`${dir}/${rel}`);
  const n = spec.points.length;
  return `#!/bin/bash
# Manycore Lab sweep (written by manycore sweep --emit slurm): ${summaryLine(spec)}.
# Each array task runs one point: manycore run --experiment points/NNNN.json --out results/NNNN.json
# (NNNN = the task id as %04d); a failed point leaves its messages in results/NNNN.error.txt.
# Submit:  sbatch ${d('slurm.sbatch')}      (sbatch --wait ... to wait for the whole array)
# Then:    manycore sweep --merge ${shq(dir)}   (or the same manycore sweep command: finished points are kept)
#SBATCH --job-name=${sweepName(spec)}
#SBATCH --array=0-${n - 1}
#SBATCH --output=${d('logs/%A_%a.out')}
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
set -euo pipefail
i=$(printf %04d "$SLURM_ARRAY_TASK_ID")
err=${d('results')}/"$i.error.txt"
mkdir -p ${d('results')}
if ${manycore} run --experiment ${d('points')}/"$i.json" --out ${d('results')}/"$i.json" --quiet 2>"$err.tmp"; then
  rm -f "$err.tmp" "$err"
else
  status=$?
  cat "$err.tmp" >&2
  mv "$err.tmp" "$err"
  exit "$status"
fi
`;
}

export interface K8sOptions {
  image: string;
  parallelism: number;
  resultsClaim: string;
  /** the command (shell words) that runs the CLI in the image */
  manycore: string;
}

/** The Job and the ConfigMap as objects (the manifest's two documents). */
export function k8sObjects(spec: SweepSpec, points: readonly SweepPoint[], opts: K8sOptions): { job: Record<string, unknown>; configMap: Record<string, unknown> } {
  const name = sweepName(spec);
  const n = points.length;
  const data: Record<string, string> = {};
  let bytes = 0;
  for (const p of points) {
    const text = pointText(p);
    data[pointFile(p.index)] = text;
    bytes += text.length + 16;
  }
  if (bytes > CONFIGMAP_MAX_BYTES)
    throw new UsageError(
      `sweep --emit k8s: the ${n} points take ${bytes} bytes, more than a ConfigMap holds (${CONFIGMAP_MAX_BYTES}); split the sweep or use --emit slurm with a shared file system`,
    );
  const labels = { 'app.kubernetes.io/name': 'manycore-lab', 'app.kubernetes.io/component': 'sweep', 'manycore-lab/sweep': name };
  const script = [
    'set -eu',
    'i=$(printf %04d "$JOB_COMPLETION_INDEX")',
    `out=${K8S_RESULTS_PATH}/$i.json`,
    `err=${K8S_RESULTS_PATH}/$i.error.txt`,
    `if ${opts.manycore} run --experiment ${K8S_POINTS_PATH}/$i.json --out "$out" --quiet 2>"$err.tmp"; then rm -f "$err.tmp" "$err"; else status=$?; cat "$err.tmp" >&2; mv "$err.tmp" "$err"; exit "$status"; fi`,
  ].join('\n');
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${name}-points`, labels },
    data,
  };
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, labels, annotations: { 'manycore-lab/sweep': summaryLine(spec) } },
    spec: {
      completionMode: 'Indexed',
      completions: n,
      parallelism: Math.min(opts.parallelism, n),
      // a failed point is retried once and does not stop the others (Kubernetes 1.29+)
      backoffLimitPerIndex: 1,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          containers: [
            {
              name: 'manycore',
              image: opts.image,
              command: ['/bin/sh', '-c', script],
              resources: { requests: { cpu: '1', memory: '512Mi' } },
              volumeMounts: [
                { name: 'points', mountPath: K8S_POINTS_PATH, readOnly: true },
                { name: 'results', mountPath: K8S_RESULTS_PATH },
              ],
            },
          ],
          volumes: [
            { name: 'points', configMap: { name: `${name}-points` } },
            { name: 'results', persistentVolumeClaim: { claimName: opts.resultsClaim } },
          ],
        },
      },
    },
  };
  return { job, configMap };
}

/** The manifest text: the ConfigMap, then the Job (`kubectl apply -f job.yaml`). */
export function k8sManifest(spec: SweepSpec, points: readonly SweepPoint[], opts: K8sOptions): string {
  const { job, configMap } = k8sObjects(spec, points, opts);
  const name = sweepName(spec);
  return (
    `# Manycore Lab sweep (written by manycore sweep --emit k8s): ${summaryLine(spec)}.\n` +
    `# Pod i runs point i (JOB_COMPLETION_INDEX) from the ConfigMap and writes ${K8S_RESULTS_PATH}/NNNN.json on the\n` +
    `# PersistentVolumeClaim ${opts.resultsClaim}. Apply: kubectl apply -f job.yaml; wait: kubectl wait --for=condition=complete job/${name};\n` +
    `# then copy the claim's NNNN.json files into results/ beside sweep.json and run manycore sweep --merge DIR.\n` +
    `---\n${toYaml(configMap)}---\n${toYaml(job)}`
  );
}

// --- a YAML writer for plain JSON data (block style; strings double-quoted as JSON, which YAML reads) ---

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const s = String(v);
  // plain when YAML reads it back as this string (no indicator, not a number, boolean or null word)
  if (/^[A-Za-z_/][A-Za-z0-9_./-]*$/.test(s) && !/^(true|false|yes|no|on|off|y|n|null)$/i.test(s)) return s;
  return JSON.stringify(s);
}

function isEmpty(v: unknown): boolean {
  return (Array.isArray(v) && v.length === 0) || (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);
}

function blockString(s: string, pad: string): string | undefined {
  // a multi-line string without trailing spaces or tabs: a literal block, kept as written
  if (!s.includes('\n') || /[ \t]\n|[\t\r]|^[ \t]/.test(s)) return undefined;
  const body = s.endsWith('\n') ? s.slice(0, -1) : s;
  return `${s.endsWith('\n') ? '|' : '|-'}\n${body
    .split('\n')
    .map((l) => (l === '' ? '' : pad + l))
    .join('\n')}\n`;
}

function value(v: unknown, pad: string): string {
  // the text after "key:" or "-": an inline scalar (with its newline) or a nested block
  if (isEmpty(v)) return ` ${Array.isArray(v) ? '[]' : '{}'}\n`;
  if (Array.isArray(v) || (v !== null && typeof v === 'object')) return '\n' + node(v, pad);
  if (typeof v === 'string') {
    const b = blockString(v, pad);
    if (b) return ' ' + b;
  }
  return ` ${scalar(v)}\n`;
}

function node(v: unknown, pad: string): string {
  if (Array.isArray(v))
    return v
      .map((item) => {
        if (item !== null && typeof item === 'object' && !Array.isArray(item) && !isEmpty(item)) {
          // "- key: v" with the rest of the mapping aligned under the first key
          const inner = node(item, pad + '  ');
          return `${pad}- ${inner.slice(pad.length + 2)}`;
        }
        return `${pad}-${value(item, pad + '  ')}`;
      })
      .join('');
  return Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${pad}${/^[A-Za-z0-9_./-]+$/.test(k) && !/^[0-9.+-]/.test(k) ? k : JSON.stringify(k)}:${value(x, pad + '  ')}`)
    .join('');
}

/** YAML (block style) of plain JSON data; `yaml.parse(toYaml(x))` deep-equals x. */
export function toYaml(v: unknown): string {
  if (v === null || typeof v !== 'object') return scalar(v) + '\n';
  if (isEmpty(v)) return (Array.isArray(v) ? '[]' : '{}') + '\n';
  return node(v, '');
}
