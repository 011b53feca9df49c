/**
 * Command-line parsing for `manycore`: flags -> an experiment input (not yet validated) and
 * run options. Pure: no I/O, so it is tested directly. Errors are UsageError with a message
 * naming the flag.
 */
import { EXPERIMENT_VERSION } from '@manycore/engine';
import { parseGuided, type GuidedArgs } from './guided-args';
import { parseSweep, type SweepArgs } from './sweep-args';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface RunArgs {
  command: 'run';
  experimentFile?: string;
  experiment: Record<string, unknown>;
  /** 'auto': fitted to the host's CPUs (fitCoresPerWorker); N: N cores per worker thread. */
  coresPerWorker: number | 'auto';
  /** Per-core log capacities (host sizing; default: the engine's logCapacities). */
  layout: { wlogCap?: number; txnCap?: number };
  inline: boolean;
  out?: string;
  json: boolean;
  quiet: boolean;
  printExperiment: boolean;
}
export interface ListArgs {
  command: 'list';
  json: boolean;
}
export interface HelpArgs {
  command: 'help';
}
export interface VersionArgs {
  command: 'version';
}
export interface FidelityArgs {
  command: 'fidelity';
  /** the markdown report (default docs/fidelity.md) */
  out: string;
  /** reproduction ids to run (default: all) */
  only: string[];
  /** list the reproductions and exit */
  list: boolean;
  coresPerWorker: number | 'auto';
  /** simulations at once ('auto': one per host CPU; each run's results do not depend on it) */
  jobs: number | 'auto';
  quiet: boolean;
}
export type Args = RunArgs | ListArgs | HelpArgs | FidelityArgs | GuidedArgs | VersionArgs | SweepArgs;

export const USAGE = `manycore: run Manycore Lab experiments headlessly

Usage:
  manycore run --preset scc|mesh --workload NAME [--param k=v]... [--chip k=v]... [--seed N]
               [--quantum-ns N] [--max-time-ns N] [--cores-per-worker N|auto] [--out results.json]
  manycore run --experiment FILE.json [--cores-per-worker N|auto] [--out results.json]
  manycore list [--json]
  manycore --version
  manycore fidelity [--out docs/fidelity.md] [--only ID[,ID]...] [--list] [--jobs N|auto] [--cores-per-worker N|auto]
               runs every reproduction of a paper's table or figure and writes the report
               (paper value, lab value, ratio, verdict, mechanism) as markdown
  manycore guided list [--json]
               the guided experiments (the web gallery's): id, number of runs, title
  manycore guided run ID [--out DIR|FILE.json|FILE.csv] [--jobs N|auto] [--cores-per-worker N|auto] [--quiet]
               runs every experiment of the entry (a sweep: several at once) and writes the rows of
               every run, with the run index and its parameters, as JSON and CSV (default ./ID.json, ./ID.csv)
  manycore sweep --experiment FILE.json --vary PATH=V1,V2,... [--vary ...] --out DIR [--jobs N|auto] [--quiet]
               the grid of the varied values (the first --vary slowest) over one experiment (PATH: dotted,
               e.g. workload.params.hops, quantumNs, chip.overrides.mesh.width); runs --jobs points at once,
               writes DIR/points, DIR/results and the merged DIR/rows.json and DIR/rows.csv; run again to
               resume (finished points are kept; another sweep in DIR is an error)
  manycore sweep ... --emit slurm [--manycore CMD]
  manycore sweep ... --emit k8s [--image NAME] [--parallelism N] [--results-claim NAME] [--manycore CMD]
               writes the same points and a Slurm job array (DIR/slurm.sbatch) or a Kubernetes Indexed
               Job with its ConfigMap (DIR/job.yaml) instead of running them
  manycore sweep --merge DIR   merges the finished points of DIR (e.g. after the array ran)

Options:
  --preset NAME         chip preset (default scc); mesh: SCC tiles on any mesh, sized by
                        --chip mesh.width=W --chip mesh.height=H (e.g. 32 x 16 = 1024 cores)
  --param k=v           workload parameter (repeatable); values are JSON when they parse, else text
  --chip path=v         chip override by dotted path, e.g. caches.l1d.sizeBytes=8192 (repeatable)
  --seed N              random seed (default 1)
  --quantum-ns N        epoch length in simulated ns, more than 0 and at most 1000000 (default 1000)
  --sample-ns N         telemetry sampling interval in simulated ns (default 10000)
  --max-time-ns N       stop at this simulated time
  --cores-per-worker N  simulated cores per host worker thread; 1 = one worker per simulated core.
                        Default auto: one worker per core when the host has a CPU for each, else
                        about one worker per CPU (ceil(cores / CPUs) cores each). Same results.
  --inline              run every core on the main thread (no workers; same results)
  --wlog-cap N          buffered line writes per core per epoch (default: 16384 on small chips,
                        less on big ones; same results, a core that needs more fails naming it)
  --txn-cap N           memory transaction records per core per epoch (default: 8192, less on big chips)
  --out FILE            write the results JSON to FILE (written only when the run succeeds)
  --json                print the results JSON to stdout instead of the summary
  --print-experiment    print the normalised experiment JSON and exit without running
  --quiet               no progress bar
`;

export function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown, flag: string): void {
  const parts = path.split('.');
  if (parts.some((p) => p === '' || p === '__proto__' || p === 'constructor' || p === 'prototype'))
    throw new UsageError(`${flag}: bad path "${path}"`);
  let obj = target;
  for (const p of parts.slice(0, -1)) {
    const next = obj[p];
    if (next === undefined) obj[p] = {};
    else if (typeof next !== 'object' || next === null || Array.isArray(next))
      throw new UsageError(`${flag}: "${path}" conflicts with an earlier value`);
    obj = obj[p] as Record<string, unknown>;
  }
  obj[parts[parts.length - 1]!] = value;
}

function keyValue(flag: string, text: string | undefined): [string, string] {
  if (text === undefined) throw new UsageError(`${flag} needs a value of the form key=value`);
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} ${text}: expected key=value`);
  return [text.slice(0, eq), text.slice(eq + 1)];
}

function number(flag: string, text: string | undefined, opts: { int?: boolean; min?: number } = {}): number {
  if (text === undefined || text.trim() === '') throw new UsageError(`${flag} needs a number`);
  const n = Number(text);
  if (!Number.isFinite(n)) throw new UsageError(`${flag} ${text}: not a number`);
  if (opts.int && !Number.isInteger(n)) throw new UsageError(`${flag} ${text}: expected a whole number`);
  if (opts.min !== undefined && n < opts.min) throw new UsageError(`${flag} ${text}: must be at least ${opts.min}`);
  return n;
}

export function parseArgs(argv: string[]): Args {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return { command: 'help' };
  if (command === 'version' || command === '--version' || command === '-V') return { command: 'version' };
  if (command === 'list') {
    for (const a of rest) if (a !== '--json') throw new UsageError(`list: unknown option ${a}`);
    return { command: 'list', json: rest.includes('--json') };
  }
  if (command === 'fidelity') return parseFidelity(rest);
  if (command === 'guided') return parseGuided(rest);
  if (command === 'sweep') return parseSweep(rest);
  if (command !== 'run') throw new UsageError(`unknown command "${command}" (expected run, list, fidelity, guided or sweep)`);
  const out: RunArgs = {
    command: 'run',
    experiment: {},
    coresPerWorker: 'auto',
    layout: {},
    inline: false,
    json: false,
    quiet: false,
    printExperiment: false,
  };
  let preset: string | undefined;
  let workload: string | undefined;
  const params: Record<string, unknown> = {};
  const chip: Record<string, unknown> = {};
  const top: Record<string, unknown> = {};
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i]!;
    const next = (): string | undefined => rest[++i];
    switch (flag) {
      case '--preset':
        preset = next();
        if (!preset) throw new UsageError('--preset needs a name');
        break;
      case '--workload':
        workload = next();
        if (!workload) throw new UsageError('--workload needs a name');
        break;
      case '--param': {
        const [k, v] = keyValue(flag, next());
        params[k] = parseValue(v);
        break;
      }
      case '--chip': {
        const [k, v] = keyValue(flag, next());
        setPath(chip, k, parseValue(v), flag);
        break;
      }
      case '--seed':
        top.seed = number(flag, next(), { int: true, min: 0 });
        break;
      case '--quantum-ns':
        top.quantumNs = number(flag, next()); // its range is the experiment schema's, with the same message as in a file
        break;
      case '--sample-ns':
        top.sampleIntervalNs = number(flag, next(), { min: 0 });
        break;
      case '--max-time-ns':
        top.stop = { maxTimeNs: number(flag, next(), { min: 0 }) };
        break;
      case '--cores-per-worker':
        {
          const v = next();
          if (v === 'auto') out.coresPerWorker = 'auto';
          else if (v !== undefined && v.trim() !== '' && !Number.isFinite(Number(v))) throw new UsageError(`${flag} ${v}: expected a whole number or auto`);
          else out.coresPerWorker = number(flag, v, { int: true, min: 1 });
        }
        break;
      case '--wlog-cap':
        out.layout.wlogCap = number(flag, next(), { int: true, min: 16 });
        break;
      case '--txn-cap':
        out.layout.txnCap = number(flag, next(), { int: true, min: 16 });
        break;
      case '--experiment':
        out.experimentFile = next();
        if (!out.experimentFile) throw new UsageError('--experiment needs a file');
        break;
      case '--out':
        out.out = next();
        if (!out.out) throw new UsageError('--out needs a file');
        break;
      case '--inline':
        out.inline = true;
        break;
      case '--json':
        out.json = true;
        break;
      case '--quiet':
        out.quiet = true;
        break;
      case '--print-experiment':
        out.printExperiment = true;
        break;
      default:
        throw new UsageError(`run: unknown option ${flag}`);
    }
  }
  if (out.experimentFile) {
    if (preset || workload || Object.keys(params).length || Object.keys(chip).length || Object.keys(top).length)
      throw new UsageError('--experiment cannot be combined with --preset, --workload, --param, --chip, --seed or --quantum-ns');
    return out;
  }
  if (!workload) throw new UsageError('run: --workload is required (or --experiment FILE); see `manycore list`');
  out.experiment = {
    version: EXPERIMENT_VERSION,
    chip: { preset: preset ?? 'scc', overrides: chip },
    workload: { name: workload, params },
    ...top,
  };
  return out;
}

function parseFidelity(rest: string[]): FidelityArgs {
  const out: FidelityArgs = { command: 'fidelity', out: 'docs/fidelity.md', only: [], list: false, coresPerWorker: 'auto', jobs: 'auto', quiet: false };
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i]!;
    const v = (): string => {
      const x = rest[++i];
      if (x === undefined || x.trim() === '') throw new UsageError(`${flag} needs a value`);
      return x;
    };
    switch (flag) {
      case '--out':
        out.out = v();
        break;
      case '--only':
        out.only.push(...v().split(',').map((s) => s.trim()).filter((s) => s !== ''));
        break;
      case '--list':
        out.list = true;
        break;
      case '--quiet':
        out.quiet = true;
        break;
      case '--cores-per-worker': {
        const x = v();
        out.coresPerWorker = x === 'auto' ? 'auto' : number(flag, x, { int: true, min: 1 });
        break;
      }
      case '--jobs': {
        const x = v();
        out.jobs = x === 'auto' ? 'auto' : number(flag, x, { int: true, min: 1 });
        break;
      }
      default:
        throw new UsageError(`fidelity: unknown option ${flag}`);
    }
  }
  return out;
}
