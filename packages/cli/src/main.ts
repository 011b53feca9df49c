#!/usr/bin/env node
/**
 * `manycore`: the headless driver. Runs the same engine as the web lab, on worker_threads
 * (one per simulated core by default), prints a progress bar on a terminal and a one-screen
 * summary, and writes the results JSON (only when the run succeeds).
 * Exit codes: 0 ok, 1 the simulation failed, 2 bad input.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import {
  ExperimentError,
  MESH_VARIANTS,
  PRESETS,
  Simulation,
  SimulationFailed,
  prepareRun,
  type Results,
} from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { nodeHost } from '@manycore/workers/node-host';
import { parseArgs, UsageError, USAGE, type RunArgs } from './args';
import { formatSummary, progressLine } from './summary';
import { fidelity } from './fidelity';
import { guided } from './guided';
import { sweepCommand } from './sweep';
import { versionText } from './version';
import { writeAtomically } from './io';

function fail(code: number, message: string): never {
  process.stderr.write(`manycore: ${message}\n`);
  process.exit(code);
}

function list(json: boolean): void {
  const data = {
    presets: Object.entries(PRESETS).map(([name, p]) => ({ name, description: p.description, source: p.source })),
    meshSizes: MESH_VARIANTS.map((v) => ({ id: v.id, label: v.label, preset: v.preset, overrides: v.overrides })),
    workloads: Object.values(workloads).map((w) => {
      const schema = z.toJSONSchema(w.params as z.ZodType, { io: 'input' }) as {
        properties?: Record<string, { type?: string; default?: unknown; description?: string; enum?: unknown[]; minimum?: number; maximum?: number }>;
      };
      return {
        name: w.name,
        title: w.title,
        description: w.description,
        params: Object.entries(schema.properties ?? {}).map(([name, p]) => ({
          name,
          type: p.enum ? p.enum.join('|') : p.type,
          default: p.default,
          min: p.minimum !== undefined && Math.abs(p.minimum) < Number.MAX_SAFE_INTEGER ? p.minimum : undefined,
          max: p.maximum !== undefined && Math.abs(p.maximum) < Number.MAX_SAFE_INTEGER ? p.maximum : undefined,
          description: p.description,
        })),
      };
    }),
  };
  if (json) {
    process.stdout.write(JSON.stringify(data, null, 2) + '\n');
    return;
  }
  const lines: string[] = ['Presets:'];
  for (const p of data.presets) lines.push(`  ${p.name.padEnd(16)} ${p.description}`);
  lines.push('', 'Mesh sizes (as in the web lab):');
  for (const v of data.meshSizes) {
    const size = v.overrides.mesh ? ` --chip mesh.width=${v.overrides.mesh.width} --chip mesh.height=${v.overrides.mesh.height}` : '';
    lines.push(`  ${v.label.padEnd(28)} --preset ${v.preset}${size}`);
  }
  lines.push('', 'Workloads:');
  for (const w of data.workloads) {
    lines.push(`  ${w.name.padEnd(16)} ${w.description}`);
    for (const p of w.params) {
      const range = p.min !== undefined || p.max !== undefined ? ` [${p.min ?? ''}..${p.max ?? ''}]` : '';
      lines.push(`      --param ${`${p.name}=${JSON.stringify(p.default)}`.padEnd(26)} ${p.type ?? ''}${range}${p.description ? '  ' + p.description : ''}`);
    }
  }
  process.stdout.write(lines.join('\n') + '\n');
}

function readExperimentFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`--experiment ${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--experiment ${file}: not valid JSON (${(err as Error).message})`);
  }
}


async function run(args: RunArgs): Promise<void> {
  const input = args.experimentFile ? readExperimentFile(args.experimentFile) : args.experiment;
  if (args.printExperiment) {
    const prepared = prepareRun(input, workloads);
    process.stdout.write(JSON.stringify(prepared.experiment, null, 2) + '\n');
    return;
  }
  const sim = new Simulation(input, workloads, { coresPerWorker: args.coresPerWorker, hostCpus: availableParallelism(), layout: args.layout });
  const tty = process.stderr.isTTY && !args.quiet && !args.json;
  let timer: ReturnType<typeof setInterval> | undefined;
  const t0 = performance.now();
  if (tty)
    timer = setInterval(() => {
      process.stderr.write('\r' + progressLine(sim.progress(performance.now()), sim.run.settings.stopAtPs, performance.now() - t0) + '\x1b[K');
    }, 150);
  let results: Results;
  try {
    if (args.inline) results = sim.runInline(() => performance.now());
    else results = await sim.start(nodeHost(new URL('./worker.mjs', import.meta.url)));
  } finally {
    if (timer) {
      clearInterval(timer);
      process.stderr.write('\r\x1b[2K');
    }
  }
  const text = JSON.stringify(results, null, 2) + '\n';
  if (args.out) writeAtomically(args.out, text);
  if (args.json) process.stdout.write(text);
  else process.stdout.write(formatSummary(results, args.out));
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) fail(2, `${err.message}\n\n${USAGE}`);
    throw err;
  }
  if (args.command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (args.command === 'version') {
    process.stdout.write(versionText());
    return;
  }
  try {
    if (args.command === 'list') list(args.json);
    else if (args.command === 'fidelity') await fidelity(args);
    else if (args.command === 'guided') await guided(args);
    else if (args.command === 'sweep') await sweepCommand(args);
    else await run(args);
  } catch (err) {
    if (err instanceof UsageError || err instanceof ExperimentError) fail(2, err.message);
    if (err instanceof SimulationFailed) fail(1, `simulation failed: ${err.message}`);
    fail(1, `internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }
}

await main();
