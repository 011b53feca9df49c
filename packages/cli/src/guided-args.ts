/**
 * Arguments of `manycore guided list [--json]` and `manycore guided run ID [--out DIR|FILE]
 * [--jobs N|auto] [--cores-per-worker N|auto] [--quiet]`. Pure: no I/O. Whether ID exists is
 * checked when the command runs (guided.ts), with the list of valid ids.
 */
import { UsageError } from './args';

export interface GuidedArgs {
  command: 'guided';
  action: 'list' | 'run';
  /** list: print JSON */
  json: boolean;
  /** run: the entry's id */
  id?: string;
  /** run: a directory (writes ID.json and ID.csv there), or a .json / .csv file (the other one beside it) */
  out?: string;
  /** simulations at once ('auto': one per host CPU; each run's results do not depend on it) */
  jobs: number | 'auto';
  coresPerWorker: number | 'auto';
  quiet: boolean;
}

function count(flag: string, text: string | undefined): number | 'auto' {
  if (text === undefined || text.trim() === '') throw new UsageError(`${flag} needs a value (a whole number of at least 1, or auto)`);
  if (text === 'auto') return 'auto';
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} ${text}: expected a whole number of at least 1, or auto`);
  return n;
}

export function parseGuided(rest: string[]): GuidedArgs {
  const [action, ...flags] = rest;
  const out: GuidedArgs = { command: 'guided', action: 'list', json: false, jobs: 'auto', coresPerWorker: 'auto', quiet: false };
  if (action === 'list') {
    for (const f of flags) if (f !== '--json') throw new UsageError(`guided list: unknown option ${f}`);
    out.json = flags.includes('--json');
    return out;
  }
  if (action !== 'run') throw new UsageError(action === undefined ? 'guided: expected list or run' : `guided: unknown action "${action}" (expected list or run)`);
  out.action = 'run';
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i]!;
    switch (flag) {
      case '--out': {
        const v = flags[++i];
        if (v === undefined || v.trim() === '') throw new UsageError('--out needs a directory or a .json / .csv file');
        out.out = v;
        break;
      }
      case '--jobs':
        out.jobs = count(flag, flags[++i]);
        break;
      case '--cores-per-worker':
        out.coresPerWorker = count(flag, flags[++i]);
        break;
      case '--quiet':
        out.quiet = true;
        break;
      default:
        if (flag.startsWith('-')) throw new UsageError(`guided run: unknown option ${flag}`);
        if (out.id !== undefined) throw new UsageError(`guided run: one entry at a time (got ${out.id} and ${flag})`);
        out.id = flag;
    }
  }
  if (out.id === undefined) throw new UsageError('guided run: which entry? (see `manycore guided list`)');
  return out;
}
