/**
 * Arguments of `manycore sweep`:
 *   sweep --experiment FILE --vary PATH=V1,V2,... [--vary ...] --out DIR [--jobs N|auto] [--quiet]
 *   sweep ... --emit slurm|k8s [--manycore CMD] [--image NAME] [--parallelism N] [--results-claim NAME]
 *   sweep --merge DIR
 * Pure: no I/O (the file, the points and DIR are checked when the command runs, sweep.ts).
 * Errors are UsageError naming the flag.
 */
import { UsageError } from './args';
import { checkVaries, parseVary, type Vary } from './sweep-spec';

export type EmitKind = 'slurm' | 'k8s';

export interface SweepArgs {
  command: 'sweep';
  /** the base experiment (not with --merge) */
  experimentFile?: string;
  vary: Vary[];
  /** the sweep's directory */
  out: string;
  /** points at once ('auto': one per host CPU, at most the points left) */
  jobs: number | 'auto';
  quiet: boolean;
  /** write the work for a scheduler instead of running it */
  emit?: EmitKind;
  /** the command that runs `manycore` in the emitted work (default: slurm, this CLI through this node; k8s, `manycore`) */
  manycore?: string;
  /** k8s: the container image (default K8S_DEFAULT_IMAGE) */
  image?: string;
  /** k8s: pods at once (default: min(points, 8)) */
  parallelism?: number;
  /** k8s: the PersistentVolumeClaim the results are written to (default K8S_DEFAULT_CLAIM) */
  resultsClaim?: string;
  /** only merge DIR's finished points into rows.json / rows.csv */
  merge: boolean;
}

function positive(flag: string, text: string | undefined, auto: boolean): number | 'auto' {
  if (text === undefined || text.trim() === '') throw new UsageError(`${flag} needs a value (a whole number of at least 1${auto ? ', or auto' : ''})`);
  if (auto && text === 'auto') return 'auto';
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} ${text}: expected a whole number of at least 1${auto ? ', or auto' : ''}`);
  return n;
}

export function parseSweep(rest: string[]): SweepArgs {
  const out: SweepArgs = { command: 'sweep', vary: [], out: '', jobs: 'auto', quiet: false, merge: false };
  const k8sOnly: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i]!;
    const value = (what: string): string => {
      const v = rest[++i];
      if (v === undefined || v.trim() === '' || v.startsWith('--')) throw new UsageError(`${flag} needs ${what}`);
      return v;
    };
    switch (flag) {
      case '--experiment':
        out.experimentFile = value('a file (the base experiment JSON)');
        break;
      case '--vary':
        out.vary.push(parseVary(rest[++i]));
        break;
      case '--out':
        out.out = value('a directory');
        break;
      case '--merge':
        out.merge = true;
        out.out = value('a sweep directory');
        break;
      case '--jobs':
        out.jobs = positive(flag, rest[++i], true);
        break;
      case '--quiet':
        out.quiet = true;
        break;
      case '--emit': {
        const v = rest[++i];
        if (v !== 'slurm' && v !== 'k8s') throw new UsageError(v === undefined ? '--emit needs slurm or k8s' : `--emit ${v}: expected slurm or k8s`);
        out.emit = v;
        break;
      }
      case '--manycore':
        out.manycore = value('the command that runs manycore (e.g. "node /opt/lab/packages/cli/dist/manycore.mjs")');
        break;
      case '--image':
        out.image = value('a container image name');
        k8sOnly.push(flag);
        break;
      case '--parallelism':
        out.parallelism = positive(flag, rest[++i], false) as number;
        k8sOnly.push(flag);
        break;
      case '--results-claim':
        out.resultsClaim = value('a PersistentVolumeClaim name');
        k8sOnly.push(flag);
        break;
      default:
        throw new UsageError(`sweep: unknown option ${flag}`);
    }
  }
  if (out.merge) {
    if (out.experimentFile || out.vary.length || out.emit) throw new UsageError('sweep --merge DIR takes no --experiment, --vary or --emit (it reads DIR/sweep.json)');
    return out;
  }
  if (!out.experimentFile) throw new UsageError('sweep: --experiment FILE is required (the base experiment; `manycore run ... --print-experiment` writes one)');
  if (!out.out) throw new UsageError('sweep: --out DIR is required (where the points, results and merged rows go)');
  checkVaries(out.vary);
  if (k8sOnly.length && out.emit !== 'k8s') throw new UsageError(`sweep: ${k8sOnly.join(', ')} only apply with --emit k8s`);
  if (out.manycore !== undefined && !out.emit) throw new UsageError('sweep: --manycore only applies with --emit slurm or --emit k8s');
  return out;
}
