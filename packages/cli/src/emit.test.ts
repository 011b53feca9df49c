import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { Job } from 'kubernetes-models/batch/v1';
import { ConfigMap } from 'kubernetes-models/v1';
import { parseExperiment } from '@manycore/engine';
import { K8S_POINTS_PATH, k8sManifest, k8sObjects, pointText, shq, slurmScript, sweepName, toYaml } from './emit';
import { buildPoints, parseVary, sweepSpec } from './sweep-spec';

const base = parseExperiment({ chip: { preset: 'scc' }, workload: { name: 'mpb-pingpong', params: { iterations: 4 } } });
const vary = [parseVary('workload.params.hops=1,2,3'), parseVary('workload.params.bytes=32,256')];
const points = buildPoints(base, vary);
const spec = sweepSpec(base, vary, points, 'manycore test');
const k8sOpts = { image: 'registry.example/manycore-lab:1', parallelism: 4, resultsClaim: 'sweep-results', manycore: 'manycore' };

describe('emit: Slurm job array', () => {
  const text = slurmScript(spec, '/data/my sweep', "node '/opt/lab/manycore.mjs'");

  it('is an array of one task per point running manycore run on its point', () => {
    const lines = text.split('\n');
    expect(lines[0]).toBe('#!/bin/bash');
    expect(lines).toContain('#SBATCH --array=0-5');
    expect(lines).toContain("#SBATCH --output='/data/my sweep/logs/%A_%a.out'");
    expect(lines).toContain(`#SBATCH --job-name=${sweepName(spec)}`);
    expect(lines).toContain('i=$(printf %04d "$SLURM_ARRAY_TASK_ID")');
    expect(text).toContain(
      `if node '/opt/lab/manycore.mjs' run --experiment '/data/my sweep/points'/"$i.json" --out '/data/my sweep/results'/"$i.json" --quiet 2>"$err.tmp"; then`,
    );
    // every #SBATCH line comes before the first command (sbatch stops reading directives there)
    const firstCommand = lines.findIndex((l) => l !== '' && !l.startsWith('#'));
    expect(lines.filter((l, i) => l.startsWith('#SBATCH') && i > firstCommand)).toEqual([]);
  });

  it('quotes for the shell', () => {
    expect(shq('/a/b-c_d.json')).toBe('/a/b-c_d.json');
    expect(shq("it's here")).toBe(`'it'\\''s here'`);
    expect(shq('$(rm -rf /)')).toBe(`'$(rm -rf /)'`);
  });
});

describe('emit: Kubernetes Indexed Job', () => {
  const text = k8sManifest(spec, points, k8sOpts);
  const docs = parseAllDocuments(text).map((d) => d.toJS() as Record<string, unknown>);

  it('writes a ConfigMap of the points and an Indexed Job over them, as two YAML documents', () => {
    expect(docs.map((d) => d.kind)).toEqual(['ConfigMap', 'Job']);
    const [cm, job] = docs as unknown as [ConfigMap, Job];
    expect(Object.keys(cm.data!)).toEqual(['0000.json', '0001.json', '0002.json', '0003.json', '0004.json', '0005.json']);
    expect(cm.data!['0004.json']).toBe(pointText(points[4]!));
    expect(JSON.parse(cm.data!['0004.json']!).workload.params).toEqual({ iterations: 4, hops: 3, bytes: 32 });
    expect(job.spec).toMatchObject({ completionMode: 'Indexed', completions: 6, parallelism: 4 });
    const pod = job.spec!.template.spec!;
    expect(pod.restartPolicy).toBe('Never');
    expect(pod.containers[0]!.image).toBe('registry.example/manycore-lab:1');
    expect(pod.volumes).toEqual([
      { name: 'points', configMap: { name: `${sweepName(spec)}-points` } },
      { name: 'results', persistentVolumeClaim: { claimName: 'sweep-results' } },
    ]);
    const script = pod.containers[0]!.command![2]!;
    expect(script).toContain('i=$(printf %04d "$JOB_COMPLETION_INDEX")');
    expect(script).toContain(`manycore run --experiment ${K8S_POINTS_PATH}/$i.json --out "$out"`);
    // the parsed YAML is exactly the objects the manifest was made from
    const objs = k8sObjects(spec, points, k8sOpts);
    expect(docs).toEqual([objs.configMap, objs.job]);
  });

  it('validates against the Kubernetes schema (kubernetes-models)', () => {
    const [cm, job] = docs;
    expect(() => new ConfigMap(cm as never).validate()).not.toThrow();
    expect(() => new Job(job as never).validate()).not.toThrow();
  });

  it('a broken manifest fails the same validation', () => {
    const job = structuredClone(docs[1]!) as { spec: { completions: unknown; template: { spec: { containers: Record<string, unknown>[] } } } };
    job.spec.completions = 'six';
    delete job.spec.template.spec.containers[0]!.name;
    expect(() => new Job(job as never).validate()).toThrow(/spec\/completions must be integer.*containers\/0 must have required property '?name/);
    const mode = structuredClone(docs[1]!) as { spec: { completionMode: string } };
    mode.spec.completionMode = 'Indexd';
    expect(() => new Job(mode as never).validate()).toThrow('spec/completionMode must be equal to one of the allowed values');
    const cm = structuredClone(docs[0]!) as { data: Record<string, unknown> };
    cm.data['0000.json'] = { not: 'a string' };
    expect(() => new ConfigMap(cm as never).validate()).toThrow(/must be string/);
  });

  it('refuses points that do not fit in a ConfigMap', () => {
    // 4000 seeds of the base experiment (about 330 bytes each): 1.3 MB
    const p = Array.from({ length: 4000 }, (_, i) => ({ index: i, values: { seed: i }, experiment: { ...base, seed: i } }));
    expect(() => k8sObjects(spec, p, k8sOpts)).toThrow(/the 4000 points take \d+ bytes, more than a ConfigMap holds \(1000000\)/);
    expect(() => k8sObjects(spec, p.slice(0, 1000), k8sOpts)).not.toThrow();
  });

  it('writes YAML that reads back as the same data', () => {
    const data = { a: 'true', b: '0001', c: ['x', { d: 1, e: [] }, []], f: {}, g: 'line 1\nline 2\n', h: 'y', i: 'a: b', 'j k': null, l: -1.5 };
    expect(parseYaml(toYaml(data))).toEqual(data);
  });
});
