/**
 * The core inspector: every counter of one core that means something on its chip, its state,
 * what it waits on, its caches. Which rows apply comes from the family's FloorplanSpec (no
 * MPB rows on a chip whose tiles hold no MPB, no island without power domains); a row with
 * `shownIf` (the page faults) is hidden while it has nothing to say.
 */
import { useEffect, useMemo, useRef } from 'react';
import { BLOCK_REASON_NAMES, C, CORE_STATE_NAMES, STALL_NAMES, type FloorplanSpec, type ResolvedChip } from '@manycore/engine';
import { controllerLabel, domainLabel, floorplanOf, hasDomains, hasMpb } from '../lib/floorplan';
import { bytes, joules, num, pct, simTime, size, watts } from '../lib/format';
import { frameLoop } from '../sim/frame-loop';
import { stallApplies, stallLabel } from '../sim/metrics';
import type { Telemetry } from '../sim/telemetry';

interface Row {
  key: string;
  label: string;
  value(t: Telemetry, core: number, chip: ResolvedChip): string;
  /** Whether the row applies to a chip of this floorplan (default: always). */
  applies?(spec: FloorplanSpec): boolean;
  /** Whether the row shows for this core now (default: always); hidden rows keep their place. */
  shownIf?(t: Telemetry, core: number): boolean;
}

const PS = 1000;
const ROWS: Row[] = [
  { key: 'state', label: 'State', value: (t, c) => CORE_STATE_NAMES[t.core(c, C.state)] ?? '?' },
  { key: 'blocked', label: 'Blocked on', value: (t, c) => BLOCK_REASON_NAMES[t.core(c, C.blockedOn)] ?? '?' },
  { key: 'clock', label: 'Local clock', value: (t, c) => simTime(t.core(c, C.clockPs) / PS, 5) },
  { key: 'cycles', label: 'Cycles', value: (t, c) => num(t.core(c, C.cycles), 4) },
  // IPC as the RCCE study defines it: instructions / wall-clock core cycles
  { key: 'ipc', label: 'Instructions / IPC', value: (t, c) => `${num(t.core(c, C.instructions), 5)} / ${t.core(c, C.cycles) > 0 ? (t.core(c, C.instructions) / t.core(c, C.cycles)).toFixed(3) : '–'}` },
  { key: 'util', label: 'Utilisation (run)', value: (t, c) => pct(t.utilRun(c)) },
  { key: 'busy', label: 'Busy', value: (t, c) => simTime(t.core(c, C.busyPs) / PS) },
  ...STALL_NAMES.map((_, i): Row => ({ key: `stall${i}`, label: `Stall: ${stallLabel(i)}`, value: (t, c) => simTime(t.core(c, C.stallL1MissPs + i) / PS), applies: (spec) => stallApplies(spec, i) })),
  { key: 'sleep', label: 'Sleeping', value: (t, c) => simTime(t.core(c, C.sleepPs) / PS) },
  { key: 'l1', label: 'L1D lines valid', value: (t, c, chip) => `${t.core(c, C.l1Lines)} / ${chip.l1d.sets * chip.l1d.ways}` },
  { key: 'l2', label: 'L2 lines valid', value: (t, c, chip) => (chip.l2 ? `${t.core(c, C.l2Lines)} / ${chip.l2.sets * chip.l2.ways}` : 'L2 off') },
  { key: 'loads', label: 'Loads / stores', value: (t, c) => `${num(t.core(c, C.loads), 5)} / ${num(t.core(c, C.stores), 5)}` },
  { key: 'l1hm', label: 'L1 hits / misses', value: (t, c) => `${num(t.core(c, C.l1Hits), 5)} / ${num(t.core(c, C.l1Misses), 5)}` },
  { key: 'l2hm', label: 'L2 hits / misses', value: (t, c) => `${num(t.core(c, C.l2Hits), 5)} / ${num(t.core(c, C.l2Misses), 5)}` },
  { key: 'dram', label: 'DRAM reads / writes', value: (t, c) => `${num(t.core(c, C.dramReads), 5)} / ${num(t.core(c, C.dramWrites), 5)}` },
  { key: 'mpb', label: 'MPB reads / writes', value: (t, c) => `${num(t.core(c, C.mpbReads), 5)} / ${num(t.core(c, C.mpbWrites), 5)}`, applies: hasMpb },
  { key: 'msgs', label: 'Messages sent / received', value: (t, c) => `${num(t.core(c, C.messagesSent), 5)} / ${num(t.core(c, C.messagesReceived), 5)}` },
  { key: 'bytes', label: 'Bytes sent / received', value: (t, c) => `${size(t.core(c, C.bytesSent), 4)} / ${size(t.core(c, C.bytesReceived), 4)}` },
  { key: 'flushes', label: 'Flushes', value: (t, c) => num(t.core(c, C.flushes), 5) },
  {
    key: 'faults',
    label: 'Page faults read / write',
    value: (t, c) => `${num(t.core(c, C.readFaults), 5)} / ${num(t.core(c, C.writeFaults), 5)}`,
    shownIf: (t, c) => t.core(c, C.readFaults) + t.core(c, C.writeFaults) > 0,
  },
  { key: 'flits', label: 'Flits injected', value: (t, c) => num(t.core(c, C.flits), 5) },
  { key: 'power', label: 'Power (last epoch)', value: (t, c) => watts(t.corePowerW(c)) },
  { key: 'energy', label: 'Energy', value: (t, c) => joules(t.core(c, C.energyJ)) },
];

/** The row of the tile's part of the family's per-tile unit (e.g. its home L2 slice), when the family has one. */
function unitRows(spec: FloorplanSpec): Row[] {
  const u = spec.unitOccupancy;
  if (!u) return [];
  return [
    {
      key: 'unit',
      label: `Tile's ${u.label}`,
      value: (t, c, chip) => {
        const used = t.unitUsed[Math.floor(c / chip.topo.coresPerTile)] ?? 0;
        return `${used} / ${u.slotsPerTile} lines (${bytes(used * u.bytesPerSlot)})`;
      },
    },
  ];
}

function rowsFor(spec: FloorplanSpec): Row[] {
  return [...ROWS.filter((r) => !r.applies || r.applies(spec)), ...unitRows(spec)];
}

/** The inspector's rows for a chip of this floorplan. */
export function inspectorRows(spec: FloorplanSpec): { key: string; label: string }[] {
  return rowsFor(spec).map(({ key, label }) => ({ key, label }));
}

export function Inspector(props: { core: number; chip: ResolvedChip; telemetry: Telemetry | null; runs: boolean; onClose(): void }) {
  const cells = useRef<Record<string, HTMLTableCellElement | null>>({});
  const latest = useRef(props);
  latest.current = props;
  const spec = floorplanOf(props.chip);
  const rows = useMemo(() => rowsFor(spec), [spec]);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  useEffect(() => {
    let drawn = '';
    let drawnRows: Row[] | null = null;
    return frameLoop.add(() => {
      const { telemetry: t, core, chip } = latest.current;
      const key = `${t?.version ?? -1}|${core}`;
      if (key === drawn && rowsRef.current === drawnRows) return;
      drawn = key;
      drawnRows = rowsRef.current;
      for (const r of rowsRef.current) {
        const el = cells.current[r.key];
        if (el) el.textContent = t ? r.value(t, core, chip) : '–';
        const tr = el?.parentElement;
        if (tr && r.shownIf) tr.hidden = !t || !r.shownIf(t, core);
      }
    });
  }, []);
  const chip = props.chip;
  const tile = Math.floor(props.core / chip.topo.coresPerTile);
  return (
    <aside
      className="inspector card"
      data-testid="inspector"
      aria-label={`Core ${props.core} inspector`}
      onKeyDown={(e) => {
        // Escape closes it, and the keyboard goes back to the chip view
        if (e.key !== 'Escape') return;
        e.preventDefault();
        props.onClose();
        document.querySelector<HTMLElement>('[data-testid="canvas-chip"]')?.focus();
      }}
    >
      <header className="card-head">
        <div>
          <h3>Core {props.core}</h3>
          <p className="sub">
            tile {tile} at ({tile % chip.topo.width},{Math.floor(tile / chip.topo.width)}){hasDomains(spec) ? `, ${domainLabel(spec, chip.islandOfTile[tile]!)}` : ''}, memory controller{' '}
            {controllerLabel(spec, chip.nearestController[props.core]!)} ·{' '}
            {props.runs ? 'runs the workload' : 'idle in this workload'}
          </p>
        </div>
        <button type="button" className="small" onClick={props.onClose} aria-label="Close inspector" data-testid="inspector-close">
          ✕
        </button>
      </header>
      <table className="kv">
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} hidden={r.shownIf ? true : undefined}>
              <th scope="row">{r.label}</th>
              <td ref={(el) => void (cells.current[r.key] = el)} data-testid={`inspect-${r.key}`}>
                –
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </aside>
  );
}
