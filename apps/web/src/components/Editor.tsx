/**
 * The experiment editor: preset, mesh size, workload and its parameters, chip parameters,
 * run settings, the overrides JSON and the timeline. Fields come from the zod schemas;
 * every problem is named next to its field.
 */
import { useEffect, useMemo, useState } from 'react';
import { PRESETS, type WorkloadRegistry } from '@manycore/engine';
import { applyVariant, CHIP_VARIANTS, variantOf } from '../lib/chip-variants';
import { chipFields, experimentFields, fieldValue, parseInput, withField, workloadFields, type Draft, type Field, type Validation } from '../lib/params';

function FieldInput(props: { field: Field; value: unknown; error?: string; disabled: boolean; onChange(v: unknown): void }) {
  const { field, value, error, disabled } = props;
  const id = `f-${field.key.replace(/\W+/g, '-')}`;
  const testId = field.key.startsWith('param.') ? `param-${field.name}` : field.key.replace(/\./g, '-');
  const shown = value === undefined || value === null ? '' : String(value);
  const [text, setText] = useState(shown);
  useEffect(() => setText(shown), [shown]);
  const range = field.min !== undefined || field.max !== undefined ? ` (${field.min ?? ''}…${field.max ?? ''})` : '';
  const help = [field.description, field.default !== undefined ? `default ${String(field.default)}` : '', range ? `range${range}` : ''].filter(Boolean).join(' · ');
  let input;
  if (field.kind === 'boolean')
    input = <input id={id} type="checkbox" checked={value === true} disabled={disabled} onChange={(e) => props.onChange(e.target.checked)} data-testid={testId} />;
  else if (field.kind === 'enum')
    input = (
      <select id={id} value={shown} disabled={disabled} onChange={(e) => props.onChange(e.target.value)} data-testid={testId}>
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
        aria-describedby={error ? `${id}-err` : undefined}
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
        {field.label}
      </label>
      {input}
      {help ? <small className="help">{help}</small> : null}
      {error ? (
        <small className="error" id={`${id}-err`} role="alert" data-testid={`error-${testId}`}>
          {error}
        </small>
      ) : null}
    </div>
  );
}

export interface EditorProps {
  draft: Draft;
  validation: Validation;
  registry: WorkloadRegistry;
  disabled: boolean;
  onChange(d: Draft): void;
  coresPerWorker: number;
  onCoresPerWorker(n: number): void;
}

export function Editor({ draft, validation, registry, disabled, onChange, coresPerWorker, onCoresPerWorker }: EditorProps) {
  const wFields = useMemo(() => workloadFields(registry, draft.workload.name), [registry, draft.workload.name]);
  const cFields = useMemo(() => chipFields(), []);
  const eFields = useMemo(() => experimentFields(), []);
  const def = registry[draft.workload.name];
  const variant = variantOf(draft.chip.overrides);
  const [overridesText, setOverridesText] = useState(JSON.stringify(draft.chip.overrides, null, 1));
  const [overridesError, setOverridesError] = useState<string | null>(null);
  const canonicalOverrides = JSON.stringify(draft.chip.overrides, null, 1);
  useEffect(() => {
    setOverridesText(canonicalOverrides);
    setOverridesError(null);
  }, [canonicalOverrides]);
  const field = (f: Field) => (
    <FieldInput key={f.key} field={f} value={fieldValue(draft, f)} error={validation.fieldErrors[f.key]} disabled={disabled} onChange={(v) => onChange(withField(draft, f, v))} />
  );

  return (
    <form className="editor" onSubmit={(e) => e.preventDefault()} aria-label="Experiment" data-testid="editor">
      <fieldset disabled={disabled}>
        <legend>Chip</legend>
        <div className="field">
          <label htmlFor="preset">Preset</label>
          <select id="preset" value={draft.chip.preset} onChange={(e) => onChange({ ...draft, chip: { ...draft.chip, preset: e.target.value } })} data-testid="preset">
            {Object.entries(PRESETS).map(([name, p]) => (
              <option key={name} value={name}>
                {(p.chip as { name: string }).name} ({name})
              </option>
            ))}
          </select>
          <small className="help">{PRESETS[draft.chip.preset]?.description}</small>
        </div>
        <div className="field">
          <label htmlFor="variant">Mesh size</label>
          <select id="variant" value={variant} onChange={(e) => onChange({ ...draft, chip: { ...draft.chip, overrides: applyVariant(draft.chip.overrides, e.target.value) } })} data-testid="chip-variant">
            {CHIP_VARIANTS.map((v) => (
              <option key={v.id} value={v.id}>
                {v.label}
              </option>
            ))}
            {variant === 'custom' ? <option value="custom">custom (from overrides)</option> : null}
          </select>
        </div>
      </fieldset>
      <fieldset disabled={disabled}>
        <legend>Workload</legend>
        <div className="field">
          <label htmlFor="workload">Workload</label>
          <select id="workload" value={draft.workload.name} onChange={(e) => onChange({ ...draft, workload: { name: e.target.value, params: {} } })} data-testid="workload">
            {Object.values(registry).map((w) => (
              <option key={w.name} value={w.name}>
                {w.title} ({w.name})
              </option>
            ))}
          </select>
          {def ? <small className="help">{def.description}</small> : null}
        </div>
        {wFields.map(field)}
      </fieldset>
      <details>
        <summary>Chip parameters</summary>
        <fieldset disabled={disabled}>{cFields.map(field)}</fieldset>
      </details>
      <details>
        <summary>Run settings</summary>
        <fieldset disabled={disabled}>
          {eFields.map(field)}
          <div className="field">
            <label htmlFor="cpw">Simulated cores per Web Worker</label>
            <select id="cpw" value={coresPerWorker} onChange={(e) => onCoresPerWorker(Number(e.target.value))} data-testid="cores-per-worker">
              {[1, 2, 4, 8, 16, 32, 48, 64].map((n) => (
                <option key={n} value={n}>
                  {n === 1 ? '1 (one worker per core)' : n}
                </option>
              ))}
            </select>
            <small className="help">How the run is spread over threads; the results are identical either way.</small>
          </div>
        </fieldset>
      </details>
      <details>
        <summary>Chip overrides (JSON)</summary>
        <fieldset disabled={disabled}>
          <textarea
            rows={6}
            spellCheck={false}
            value={overridesText}
            aria-label="Chip overrides as JSON"
            data-testid="overrides-json"
            onChange={(e) => {
              setOverridesText(e.target.value);
              try {
                const v: unknown = JSON.parse(e.target.value || '{}');
                if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('expected a JSON object');
                setOverridesError(null);
                onChange({ ...draft, chip: { ...draft.chip, overrides: v as Record<string, unknown> } });
              } catch (err) {
                setOverridesError(err instanceof Error ? err.message : String(err));
              }
            }}
          />
          {overridesError ? (
            <small className="error" role="alert">
              {overridesError}
            </small>
          ) : (
            <small className="help">Partial chip config merged over the preset, e.g. {'{"clocks":{"divisor":5}}'}.</small>
          )}
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
