import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { Job } from 'kubernetes-models/batch/v1';
import { ConfigMap } from 'kubernetes-models/v1';
import { parseExperiment } from '@manycore/engine';
import { K8S_POINTS_PATH, k8sManifest, k8sObjects, pointText, shq, slurmScript, sweepName, toYaml } from './emit';
import { buildPoints, parseVary, sweepSpec } from './sweep-spec';
import { cachedK8sSchemas, checkAgainst, checkK8sStrict, type K8sDefinitions, upstreamId } from './k8s-schema.test-helper';

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

  it('validates strictly against the Kubernetes schema: no unknown field, type, enum or required violation', async () => {
    // both kinds read in one TypeScript program, which checkK8sStrict then reuses
    const { definitions, roots } = cachedK8sSchemas(['v1/ConfigMap', 'batch/v1/Job']);
    expect(roots).toEqual({ 'v1/ConfigMap': 'io.k8s.api.core.v1.ConfigMap', 'batch/v1/Job': 'io.k8s.api.batch.v1.Job' });
    const [cm, job] = docs;
    expect(await checkK8sStrict(cm)).toEqual([]);
    expect(await checkK8sStrict(job)).toEqual([]);
    // the schema checked is new enough for the fields the Job uses (backoffLimitPerIndex: 1.29+)
    const jobSpec = definitions['io.k8s.api.batch.v1.JobSpec']!;
    expect(Object.keys(jobSpec.properties!)).toEqual(expect.arrayContaining(['backoffLimitPerIndex', 'completionMode', 'completions', 'parallelism', 'template']));
    expect(jobSpec.properties!.completionMode).toEqual({ type: 'string', enum: ['Indexed', 'NonIndexed'] });
    expect(jobSpec.required).toEqual(['template']);
    expect(definitions['io.k8s.api.core.v1.Container']!.required).toEqual(['name']);
  });

  type JobDoc = { spec: Record<string, unknown> & { template: { spec: { containers: Record<string, unknown>[] } } } };
  const brokenJob = (edit: (j: JobDoc) => void) => {
    const j = structuredClone(docs[1]!) as unknown as JobDoc;
    edit(j);
    return checkK8sStrict(j);
  };

  it('rejects a misspelled Job field and an unknown container field, naming the path', async () => {
    expect(
      await brokenJob((j) => {
        j.spec.completionMod = j.spec.completionMode;
        delete j.spec.completionMode;
      }),
    ).toEqual(['spec.completionMod: unknown field (io.k8s.api.batch.v1.JobSpec defines no "completionMod")']);
    expect(await brokenJob((j) => (j.spec.template.spec.containers[0]!.imagePullPolcy = 'Never'))).toEqual([
      'spec.template.spec.containers[0].imagePullPolcy: unknown field (io.k8s.api.core.v1.Container defines no "imagePullPolcy")',
    ]);
    // kubernetes-models' own validator lets both through: that is the gap this check closes
    const loose = structuredClone(docs[1]!) as unknown as JobDoc;
    loose.spec.completionMod = 'Indexed';
    expect(() => new Job(loose as never).validate()).not.toThrow();
  });

  it('rejects wrong types, values outside an enum and missing required fields, naming the path', async () => {
    expect(await brokenJob((j) => (j.spec.completions = 'six'))).toEqual(['spec.completions: must be a number, not string "six"']);
    expect(await brokenJob((j) => (j.spec.parallelism = 1.5))).toEqual(['spec.parallelism: must be an integer, not 1.5']);
    expect(await brokenJob((j) => ((j.spec.template.spec.containers[0]!.volumeMounts as Record<string, unknown>[])[0]!.readOnly = 'yes'))).toEqual([
      'spec.template.spec.containers[0].volumeMounts[0].readOnly: must be a boolean, not string "yes"',
    ]);
    expect(await brokenJob((j) => (j.spec.completionMode = 'Indexd'))).toEqual(['spec.completionMode: must be one of "Indexed", "NonIndexed", not "Indexd"']);
    expect(await brokenJob((j) => delete j.spec.template.spec.containers[0]!.name)).toEqual([
      'spec.template.spec.containers[0].name: required by io.k8s.api.core.v1.Container but missing',
    ]);
    const cm = structuredClone(docs[0]!) as { data: Record<string, unknown>; metadata: { labels: Record<string, unknown> } };
    cm.data['0000.json'] = { not: 'a string' };
    cm.metadata.labels['app.kubernetes.io/name'] = 7;
    expect(await checkK8sStrict(cm)).toEqual([
      'metadata.labels["app.kubernetes.io/name"]: must be a string, not number 7',
      'data["0000.json"]: must be a string, not object {"not":"a string"}',
    ]);
    await expect(checkK8sStrict({ apiVersion: 'batch/v1', kind: 'Jobs' })).rejects.toThrow('no Kubernetes schema for batch/v1/Jobs: kubernetes-models has no batch/v1/Jobs.d.ts');
  });

  it('walks any OpenAPI-style definitions: $refs resolved, objects with properties closed, maps and anyOf open to their values', () => {
    const defs: K8sDefinitions = {
      'x.Outer': { type: 'object', required: ['inner'], properties: { inner: { $ref: '#/definitions/x.Inner' }, tags: { type: 'object', additionalProperties: { type: 'string' } }, any: {} } },
      'x.Inner': { type: 'object', properties: { size: { anyOf: [{ type: 'string' }, { type: 'number' }] }, list: { type: 'array', items: { $ref: '#/definitions/x.Missing' } } } },
    };
    const check = (v: unknown) => {
      const out: string[] = [];
      checkAgainst(v, { $ref: '#/definitions/x.Outer' }, defs, '', out);
      return out;
    };
    expect(check({ inner: { size: '1Gi' }, tags: { a: 'b' }, any: { whatever: [1] } })).toEqual([]);
    expect(check({ inner: { size: true, extra: 1 }, tags: { a: 1 } })).toEqual([
      'inner.size: must be string or number, not boolean',
      'inner.extra: unknown field (x.Inner defines no "extra")',
      'tags.a: must be a string, not number 1',
    ]);
    expect(check({ inner: { list: [{}] }, more: null })).toEqual([
      'inner.list[0]: the schema refers to #/definitions/x.Missing, which is not among the definitions',
      'more: unknown field (x.Outer defines no "more")',
    ]);
    expect(check({})).toEqual(['inner: required by x.Outer but missing']);
    expect(upstreamId('IoK8sApimachineryPkgApisMetaV1ObjectMeta')).toBe('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
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
