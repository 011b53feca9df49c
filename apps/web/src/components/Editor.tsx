/**
 * The experiment editor: preset (every family's, grouped by family), mesh size, workload and
 * its parameters, the chosen family's chip parameters, run settings, the overrides JSON and
 * the timeline. Fields come from the zod schemas; every problem is named next to its field.
 * Switching to a preset of another family clears the overrides (they are another family's
 * config paths) and says so.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { FAMILIES, familyOf, PRESETS, type WorkloadRegistry } from '@manycore/engine';
import { applyVariant, CHIP_VARIANTS, variantOf } from '../lib/chip-variants';
import {
  chipCores,
  chipFields,
  experimentFields,
  familyOfPreset,
  fieldValue,
  followChip,
  OVERRIDES_KEY,
  overridesProblem,
  parseInput,
  withField,
  withPreset,
  workloadFields,
  type Draft,
  type Field,
  type Validation,
} from '../lib/params';
import { CORES_PER_WORKER_CHOICES, effectiveCoresPerWorker, type CoresPerWorker } from '../lib/workers';
import { Term } from './Term';
import type { TermId } from '../lib/glossary';
/** Fields whose label is a glossary term (definition on hover). */
const FIELD_TERMS: Partial<Record<string, TermId>> = { 'exp.quantumNs': 'quantum', 'param.divisor': 'divisor' };


/** Presets grouped by family, families in registry order. */
function presetGroups(): { family: string; title: string; presets: [string, (typeof PRESETS)[string]][] }[] {
  return Object.values(FAMILIES)
    .map((f) => ({ family: f.name, title: f.title, presets: Object.entries(PRESETS).filter(([, p]) => p.family === f.name) }))
    .filter((g) => g.presets.length > 0);
}

/** The mesh-size variants of a family (their presets are of that family; none for a family without variants). */
function variantsFor(family: string): readonly (typeof CHIP_VARIANTS)[number][] {
  return CHIP_VARIANTS.filter((v) => PRESETS[v.preset]?.family === family);
}

/** Families a workload runs on (the engine's default: the SCC family). */
function workloadFamilies(w: { families?: readonly string[] }): readonly string[] {
  return w.families ?? ['scc'];
}

/** The data-testid of a field's message: `field-error-<param>` for a workload parameter, `field-error-<chip-…|exp-…>` for the others. */
export function fieldErrorTestId(field: Pick<Field, 'key' | 'name'>): string {
  return `field-error-${field.key.startsWith('param.') ? field.name : field.key.replace(/\./g, '-')}`;
}

function FieldInput(props: { field: Field; value: unknown; error?: string; disabled: boolean; onChange(v: unknown): void }) {
  const { field, value, error, disabled } = props;
  const id = `f-${field.key.replace(/\W+/g, '-')}`;
  const testId = field.key.startsWith('param.') ? `param-${field.name}` : field.key.replace(/\./g, '-');
  // the message first (read first by a screen reader), then the help
  const describedBy = [error ? `${id}-err` : '', `${id}-help`].filter(Boolean).join(' ');
  const shown = value === undefined || value === null ? '' : String(value);
  const [text, setText] = useState(shown);
  useEffect(() => setText(shown), [shown]);
  const range = field.min !== undefined || field.max !== undefined ? ` (${field.min ?? ''}…${field.max ?? ''})` : '';
  const help = [field.description, field.default !== undefined ? `default ${String(field.default)}` : '', range ? `range${range}` : ''].filter(Boolean).join(' · ');
  let input;
  if (field.kind === 'boolean')
    input = (
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        disabled={disabled}
        aria-invalid={!!error}
        aria-describedby={describedBy}
        onChange={(e) => props.onChange(e.target.checked)}
        data-testid={testId}
      />
    );
  else if (field.kind === 'enum')
    input = (
      <select id={id} value={shown} disabled={disabled} aria-invalid={!!error} aria-describedby={describedBy} onChange={(e) => props.onChange(e.target.value)} data-testid={testId}>
        {field.options!.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  else
    input = (
      <input
        id={id}
        type="text"
        inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'}
        value={text}
        disabled={disabled}
        aria-invalid={!!error}
        aria-describedby={describedBy}
        onChange={(e) => {
          setText(e.target.value);
          props.onChange(parseInput(field, e.target.value));
        }}
        data-testid={testId}
      />
    );
  return (
    <div className={`field ${error ? 'invalid' : ''}`}>
      <label htmlFor={id} title={help}>
        {FIELD_TERMS[field.key] ? <Term id={FIELD_TERMS[field.key]!}>{field.label}</Term> : field.label}
      </label>
      {input}
      {error ? (
        <small className="field-error" id={`${id}-err`} role="alert" data-testid={fieldErrorTestId(field)}>
          {error}
        </small>
      ) : null}
      <small className="help" id={`${id}-help`}>
        {help}
      </small>
    </div>
  );
}

export interface EditorProps {
  draft: Draft;
  validation: Validation;
  registry: WorkloadRegistry;
  disabled: boolean;
  onChange(d: Draft): void;
  coresPerWorker: CoresPerWorker;
  onCoresPerWorker(n: CoresPerWorker): void;
  /** Cores of the chip shown (for the 'auto' layout's label). */
  cores?: number;
  hostCpus: number;
  /** The overrides JSON text's own problem (null: it parses), for the page to block Run with. */
  onOverridesProblem?(problem: string | null): void;
  /** Why the worker layout cannot be chosen (the fallback without SharedArrayBuffer runs one worker); the setting is disabled with this reason. */
  workersFixed?: string;
}

export function Editor({ draft, validation, registry, disabled, onChange, coresPerWorker, onCoresPerWorker, cores, hostCpus, onOverridesProblem, workersFixed }: EditorProps) {
  const family = familyOfPreset(draft.chip.preset) ?? 'scc';
  const wFields = useMemo(() => workloadFields(registry, draft.workload.name), [registry, draft.workload.name]);
  const cFields = useMemo(() => chipFields(family), [family]);
  const eFields = useMemo(() => experimentFields(), []);
  const groups = useMemo(() => presetGroups(), []);
  const variants = useMemo(() => variantsFor(family), [family]);
  const [presetNote, setPresetNote] = useState<string | null>(null);
  const [coresNote, setCoresNote] = useState<string | null>(null);
  const def = registry[draft.workload.name];
  const variant = variantOf(draft.chip);
  const runsHere = Object.values(registry).filter((w) => workloadFamilies(w).includes(family));
  const elsewhere = Object.values(registry).filter((w) => !workloadFamilies(w).includes(family));
  /**
   * A new chip choice (preset and overrides). Within the family it is taken as it is; a switch
   * to another family clears the overrides and timeline changes of the old one (withPreset), with
   * a note that says what went. `own`: the overrides belong to the new choice (a mesh-size variant's).
   */
  const choose = (next: { preset: string; overrides: Record<string, unknown> }, own: boolean) => {
    // the workload's core-count parameter follows a chip of another size, or is flagged (followChip)
    const follow = (d: Draft) => {
      const r = followChip(d, registry, chipCores(draft.chip), chipCores(d.chip));
      setCoresNote(r.note);
      return r.draft;
    };
    if (familyOfPreset(next.preset) === family) {
      setPresetNote(null);
      onChange(follow({ ...draft, chip: next }));
      return;
    }
    const r = withPreset(draft, next.preset);
    const to = PRESETS[next.preset];
    setPresetNote(r.cleared ? `Switched to the ${to ? familyOf(to.family).title : next.preset} family: cleared ${r.cleared}.` : null);
    onChange(follow({ ...r.draft, chip: { preset: next.preset, overrides: own ? next.overrides : {} } }));
  };
  const [overridesText, setOverridesText] = useState(JSON.stringify(draft.chip.overrides, null, 1));
  const [overridesError, setOverridesError] = useState<string | null>(null);
  const canonicalOverrides = JSON.stringify(draft.chip.overrides, null, 1);
  useEffect(() => {
    setOverridesText(canonicalOverrides);
    setOverridesError(null);
  }, [canonicalOverrides]);
  // the page blocks Run while the text does not parse (the draft still has the last good overrides)
  useEffect(() => onOverridesProblem?.(overridesError), [overridesError, onOverridesProblem]);
  useEffect(() => () => onOverridesProblem?.(null), [onOverridesProblem]);
  const overridesShown = overridesError ?? validation.fieldErrors[OVERRIDES_KEY] ?? null;
  // a folded section that gets a problem opens, so the message beside the field is seen
  const chipDetails = useRef<HTMLDetailsElement>(null);
  const runDetails = useRef<HTMLDetailsElement>(null);
  const overridesDetails = useRef<HTMLDetailsElement>(null);
  const problemKeys = Object.keys(validation.fieldErrors).join(' ');
  useEffect(() => {
    const keys = problemKeys.split(' ');
    if (chipDetails.current && keys.some((k) => k.startsWith('chip.') && k !== OVERRIDES_KEY)) chipDetails.current.open = true;
    if (runDetails.current && keys.some((k) => k.startsWith('exp.'))) runDetails.current.open = true;
    if (overridesDetails.current && (keys.includes(OVERRIDES_KEY) || overridesError)) overridesDetails.current.open = true;
  }, [problemKeys, overridesError]);
  const field = (f: Field) => (
    <FieldInput key={f.key} field={f} value={fieldValue(draft, f)} error={validation.fieldErrors[f.key]} disabled={disabled} onChange={(v) => onChange(withField(draft, f, v))} />
  );

  return (
    <form className="editor" onSubmit={(e) => e.preventDefault()} aria-label="Experiment" data-testid="editor">
      <fieldset disabled={disabled}>
        <legend>Chip</legend>
        <div className="field">
          <label htmlFor="preset">Preset</label>
          <select id="preset" value={draft.chip.preset} onChange={(e) => choose({ preset: e.target.value, overrides: draft.chip.overrides }, false)} data-testid="preset">
            {groups.map((g) => (
              <optgroup key={g.family} label={g.title}>
                {g.presets.map(([name, p]) => (
                  <option key={name} value={name} data-family={p.family}>
                    {(p.chip as { name: string }).name} ({name})
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <small className="help">
            {familyOf(family).title} · {PRESETS[draft.chip.preset]?.description}
          </small>
          {presetNote ? (
            <small className="preset-note" role="status" data-testid="preset-note">
              {presetNote}{' '}
              <button type="button" className="small link" onClick={() => setPresetNote(null)} aria-label="Dismiss">
                OK
              </button>
            </small>
          ) : null}
        </div>
        {variants.length > 0 ? (
          <div className="field">
            <label htmlFor="variant">Mesh size</label>
            <select id="variant" value={variant} onChange={(e) => choose(applyVariant(draft.chip, e.target.value), true)} data-testid="chip-variant">
              {variants.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.label}
                </option>
              ))}
              {variant === 'custom' ? <option value="custom">custom (from overrides)</option> : null}
            </select>
          </div>
        ) : null}
        {coresNote ? (
          <p className="cores-note" role="status" data-testid="cores-note">
            {coresNote}{' '}
            <button type="button" className="small link" onClick={() => setCoresNote(null)} aria-label="Dismiss the note">
              OK
            </button>
          </p>
        ) : null}
      </fieldset>
      <fieldset disabled={disabled}>
        <legend>Workload</legend>
        <div className="field">
          <label htmlFor="workload">Workload</label>
          <select id="workload" value={draft.workload.name} onChange={(e) => onChange({ ...draft, workload: { name: e.target.value, params: {} } })} data-testid="workload">
            {runsHere.map((w) => (
              <option key={w.name} value={w.name}>
                {w.title} ({w.name})
              </option>
            ))}
            {elsewhere.length > 0 ? (
              <optgroup label={`Not for the ${familyOf(family).title} family`}>
                {elsewhere.map((w) => (
                  <option key={w.name} value={w.name}>
                    {w.title} ({w.name}; {workloadFamilies(w).join(', ')} only)
                  </option>
                ))}
              </optgroup>
            ) : null}
          </select>
          {def ? <small className="help">{def.description}</small> : null}
        </div>
        {wFields.map(field)}
      </fieldset>
      <details ref={chipDetails}>
        <summary>Chip parameters</summary>
        <fieldset disabled={disabled} data-testid="chip-fields" data-family={family}>
          {cFields.length > 0 ? cFields.map(field) : <p className="help">No fields for this family: use the chip overrides (JSON).</p>}
        </fieldset>
      </details>
      <details ref={runDetails}>
        <summary>Run settings</summary>
        <fieldset disabled={disabled}>
          {eFields.map(field)}
          <div className="field">
            <label htmlFor="cpw">Simulated cores per Web Worker</label>
            <select
              id="cpw"
              value={String(coresPerWorker)}
              onChange={(e) => onCoresPerWorker(e.target.value === 'auto' ? 'auto' : Number(e.target.value))}
              data-testid="cores-per-worker"
              disabled={workersFixed !== undefined}
              aria-describedby={workersFixed !== undefined ? 'cpw-fixed' : undefined}
            >
              <option value="auto">
                auto{cores ? `: ${effectiveCoresPerWorker('auto', cores, hostCpus)} for ${cores} cores` : ''} ({hostCpus} CPU{hostCpus === 1 ? '' : 's'} here)
              </option>
              {[...new Set([...CORES_PER_WORKER_CHOICES, ...(typeof coresPerWorker === 'number' ? [coresPerWorker] : [])])]
                .sort((a, b) => a - b)
                .map((n) => (
                  <option key={n} value={String(n)}>
                    {n === 1 ? '1 (one worker per core)' : n}
                  </option>
                ))}
            </select>
            {workersFixed !== undefined ? (
              <small className="help warn-text" id="cpw-fixed" data-testid="cores-per-worker-fixed">
                {workersFixed}
              </small>
            ) : (
              <small className="help">
                How the run is spread over threads; the results are identical either way. Auto: one worker per core while this host has a CPU for each, else about one worker per
                CPU.
              </small>
            )}
          </div>
        </fieldset>
      </details>
      <details ref={overridesDetails}>
        <summary>Chip overrides (JSON)</summary>
        <fieldset disabled={disabled}>
          <textarea
            rows={6}
            spellCheck={false}
            value={overridesText}
            aria-label="Chip overrides as JSON"
            aria-invalid={!!overridesShown}
            aria-describedby={overridesShown ? 'overrides-err overrides-help' : 'overrides-help'}
            data-testid="overrides-json"
            onChange={(e) => {
              setOverridesText(e.target.value);
              const r = overridesProblem(e.target.value);
              setOverridesError(r.problem);
              if (r.value) onChange({ ...draft, chip: { ...draft.chip, overrides: r.value } });
            }}
          />
          {overridesShown ? (
            <small className="field-error" id="overrides-err" role="alert" data-testid="field-error-overrides-json">
              {overridesShown}
            </small>
          ) : null}
          <small className="help" id="overrides-help">
            Partial chip config merged over the preset, e.g. {'{"clocks":{"divisor":5}}'}.
          </small>
        </fieldset>
      </details>
      {validation.general.length > 0 ? (
        <ul className="errors" role="alert" data-testid="validation-errors">
          {validation.general.map((g, i) => (
            <li key={i}>{g}</li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}
