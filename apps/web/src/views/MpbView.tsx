/**
 * The MPB view: one core's 8 KB MPB half, live. The frame loop copies the half out of the
 * run's shared state buffer (mpb-probe.ts), the canvas redraws only when the bytes changed or
 * a highlight fades, and the few numbers beside it are written straight into the DOM: React
 * renders only when the user picks another core or hovers another region.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { CanvasCard } from '../components/CanvasCard';
import { frameLoop } from '../sim/frame-loop';
import { describeRegion, hex32, mpbSpecOf, postedCount, type MpbFields, type MpbProtocol } from './mpb-decode';
import { drawMpb, drawMpbDynamic, drawMpbStatic, FADE_MS, lineAt, lineBox, mpbGeometry, type MpbDrawState } from './mpb-draw';
import { LINE, MpbProbe } from './mpb-probe';
import type { WorkloadViewProps } from './WorkloadViews';

const PROTOCOL_TITLE: Record<MpbProtocol, string> = {
  'rckmpi-improved': 'RCKMPI, improved channel: 48 base sections of 64 B at the receiver, 4 KB extended section at the sender',
  'rckmpi-original': 'RCKMPI, original channel: one exclusive write section per rank at the receiver',
  rcce: 'RCCE: one 8160 B communication buffer and a 32 B flag line',
  raw: 'raw MPB bytes',
};

interface Readout {
  id: string;
  label: string;
  value(f: MpbFields, probe: MpbProbe): string;
}

function readouts(protocol: MpbProtocol): Readout[] {
  const common: Readout[] = [
    { id: 'mpb-nonzero', label: 'non-zero bytes', value: (f) => String(f.nonZeroBytes) },
    { id: 'mpb-seq-changes', label: 'sequence / flag changes seen', value: (_f, p) => String(p.seqChanges) },
  ];
  if (protocol === 'rckmpi-improved')
    return [
      { id: 'mpb-ext-mask', label: 'extended-section mask', value: (f) => (f.protocol === 'rckmpi-improved' ? hex32(f.extMask) : '') },
      { id: 'mpb-slots', label: 'slots in use', value: (f) => (f.protocol === 'rckmpi-improved' ? String(f.slotsUsed) : '') },
      { id: 'mpb-peak-slots', label: 'peak slots in use', value: (_f, p) => `${p.peakSlots} (${hex32(p.peakMask)})` },
      { id: 'mpb-posted', label: 'packets posted here (Σ send seq)', value: (f) => String(postedCount(f)) },
      ...common,
    ];
  if (protocol === 'rckmpi-original')
    return [{ id: 'mpb-posted', label: 'sections holding a packet', value: (f) => String(postedCount(f)) }, ...common];
  if (protocol === 'rcce')
    return [
      { id: 'mpb-posted', label: 'flag version', value: (f) => String(postedCount(f)) },
      { id: 'mpb-sent', label: 'sent bits', value: (f) => (f.protocol === 'rcce' ? f.flags.sent.join(', ') || 'none' : '') },
      { id: 'mpb-ready', label: 'ready bits', value: (f) => (f.protocol === 'rcce' ? f.flags.ready.join(', ') || 'none' : '') },
      ...common,
    ];
  return common;
}

export function MpbView({ prepared, run }: WorkloadViewProps) {
  const chip = prepared.chip;
  const cpt = chip.topo.coresPerTile;
  const regionBytes = chip.mpbBytes / cpt;
  const participants = prepared.settings.participants;
  const spec = useMemo(
    () => mpbSpecOf(prepared.workload.name, prepared.params, participants, regionBytes),
    [prepared.workload.name, prepared.params, participants, regionBytes],
  );
  const [picked, setPicked] = useState<number | null>(null);
  const owner = picked !== null && participants.includes(picked) ? picked : (participants[0] ?? 0);
  // a new probe for another core, layout or run (its peaks and change counts are per run)
  const probe = useMemo(() => new MpbProbe(spec, owner), [spec, owner, run]);
  const geo = useMemo(() => mpbGeometry(regionBytes, spec.protocol.startsWith('rckmpi') ? Math.max(0, participants.length - 1) : 0), [regionBytes, spec, participants]);
  const fields = useMemo(() => readouts(spec.protocol), [spec.protocol]);

  const runRef = useRef(run);
  runRef.current = run;
  const [hoverRegion, setHoverRegion] = useState(-1);
  const hover = useRef({ region: -1, line: -1 });
  const tip = useRef<HTMLDivElement>(null);
  const tipPos = useRef({ x: 0, y: 0 });
  const dd = useRef(new Map<string, HTMLElement>());
  const drawKey = useRef('');
  const nowRef = useRef(0);

  // sample the shared buffer once per frame, before the canvas (order 1) looks at the version
  useEffect(() => {
    let shown = '';
    const update = (now: number) => {
      const r = runRef.current;
      nowRef.current = now;
      probe.sample(r ? r.telemetry.views.mpb : null, chip.mpbBytes, cpt, now);
      drawKey.current = `${probe.version}|${probe.fading(now, FADE_MS) ? Math.floor(now / 33) : 'still'}`;
      // the readouts, written only when they change
      const f = probe.fields;
      const text = fields.map((k) => k.value(f, probe));
      const joined = text.join('\u0000');
      if (joined !== shown) {
        shown = joined;
        fields.forEach((k, i) => {
          const el = dd.current.get(k.id);
          if (el && el.textContent !== text[i]) el.textContent = text[i]!;
        });
      }
      const el = tip.current;
      if (el) {
        const h = hover.current;
        if (h.region < 0) {
          if (el.style.display !== 'none') el.style.display = 'none';
        } else {
          const tt = [`line ${h.line} (bytes ${h.line * LINE}..${h.line * LINE + LINE - 1})`, ...describeRegion(probe.regions[h.region]!, probe.fields, probe.bytes)].join('\n');
          if (el.textContent !== tt) el.textContent = tt;
          el.style.display = 'block';
          el.style.left = `${tipPos.current.x + 14}px`;
          el.style.top = `${tipPos.current.y + 14}px`;
        }
      }
    };
    return frameLoop.add(update, 0.5);
  }, [probe, fields, chip.mpbBytes, cpt]);

  const title = `core ${owner}${spec.members.indexOf(owner) >= 0 && spec.protocol.startsWith('rckmpi') ? ` (rank ${spec.members.indexOf(owner)})` : ''} · tile ${Math.floor(owner / cpt)}, MPB bytes ${(owner % cpt) * regionBytes}..${(owner % cpt) * regionBytes + regionBytes - 1}`;
  const state = (): MpbDrawState => ({ probe, cores: chip.topo.cores, hoverRegion, nowMs: nowRef.current, title });
  const staticKey = `${spec.protocol}|${owner}|${participants.length}|${geo.width}x${geo.height}|${String(run ? 'run' : 'none')}`;

  return (
    <section className="mpb-view" data-testid="mpb-view" data-protocol={spec.protocol}>
      <CanvasCard
        id="mpb"
        title="Message-passing buffer"
        subtitle={PROTOCOL_TITLE[spec.protocol]}
        world={{ w: geo.width, h: geo.height }}
        maxHeight={900}
        draw={(p) => drawMpb(p, state())}
        layers={() => {
          const s = state();
          return { key: staticKey, drawStatic: (p) => drawMpbStatic(p, s), drawDynamic: (p) => drawMpbDynamic(p, s) };
        }}
        version={() => `${drawKey.current}|${hoverRegion}|${staticKey}`}
        table={{
          caption: `The MPB of core ${owner}: each region, its bytes and what it holds now`,
          columns: ['region', 'bytes', 'contents'],
          rows: () =>
            probe.regions.map((r) => {
              const [label = '', range = '', ...rest] = describeRegion(r, probe.fields, probe.bytes);
              return [label, range.replace(/^bytes /, ''), rest.join('; ')];
            }),
        }}
        toolbar={
          <label className="inline">
            core{' '}
            <select value={owner} onChange={(e) => setPicked(Number(e.target.value))} data-testid="mpb-core">
              {participants.map((c) => (
                <option key={c} value={c}>
                  {spec.protocol.startsWith('rckmpi') ? `${c} (rank ${participants.indexOf(c)})` : String(c)}
                </option>
              ))}
            </select>
          </label>
        }
        onPointer={(x, y, kind, ev) => {
          const wrap = (ev as unknown as { currentTarget?: HTMLElement }).currentTarget?.parentElement;
          const r = wrap?.getBoundingClientRect();
          if (r) tipPos.current = { x: ev.clientX - r.left, y: ev.clientY - r.top };
          const line = kind === 'leave' ? -1 : lineAt(x, y, probe.bytes.length / LINE);
          // the region of the 4-byte word under the pointer
          const word = line < 0 ? 0 : Math.min(7, Math.max(0, Math.floor((x - lineBox(line).x) / 7)));
          const region = line < 0 ? -1 : probe.words[line * 8 + word]!;
          hover.current = { region, line };
          if (region !== hoverRegion) setHoverRegion(region);
        }}
      >
        <div ref={tip} className="tooltip" data-testid="mpb-tooltip" role="tooltip" style={{ display: 'none' }} />
        <dl className="keynums" data-testid="mpb-readout" style={{ marginTop: '0.5rem' }}>
          {fields.map((k) => (
            <div key={k.id}>
              <dt>{k.label}</dt>
              <dd
                data-testid={k.id}
                ref={(el) => {
                  if (el) dd.current.set(k.id, el);
                  else dd.current.delete(k.id);
                }}
              />
            </div>
          ))}
        </dl>
      </CanvasCard>
    </section>
  );
}

