/**
 * The first-visit tour: a short, skippable walk through the lab, one step per part of the page.
 * Not modal: it sits above the run controls and outlines the part it describes, so the lab stays
 * usable while it is open. Shown on the first visit (nothing in localStorage yet), closed for
 * good by Skip or Done, reopened from the header's Tour button.
 */
import { useEffect } from 'react';

export interface TourStep {
  /** data-testid of the part of the page the step describes */
  target: string;
  title: string;
  text: string;
}

export const TOUR_STEPS: TourStep[] = [
  {
    target: 'editor',
    title: 'Pick a chip and a workload',
    text: 'The experiment: a chip, a workload and its parameters. Every field says its unit and range; a wrong value is explained beside the field. Dotted words have a definition on hover.',
  },
  {
    target: 'controls',
    title: 'Run, pause, step',
    text: 'Run and pause with Space, step one epoch with S, wherever the focus is. Speed sets how much simulated time passes per second: slow it down to watch, or to change something during the run.',
  },
  {
    target: 'view-chip',
    title: 'Watch the chip',
    text: 'Every core, coloured by the metric you pick, and the mesh links by their traffic. Click a core, or focus the chip and use the arrow keys and Enter, to inspect it.',
  },
  {
    target: 'whatif',
    title: 'Change it while it runs',
    text: 'Change a clock divisor mid-run: the change lands in the experiment’s timeline, so the run stays reproducible.',
  },
  {
    target: 'copy-link',
    title: 'Share a run',
    text: 'A link holds the whole experiment and the digest of its run: whoever opens it can rerun it and see that the digest matches.',
  },
  {
    target: 'tab-gallery',
    title: 'Guided experiments',
    text: 'Ready-made runs and sweeps from the papers, with what to look for and the papers’ values beside the lab’s.',
  },
];

export const TOUR_KEY = 'manycore.tour';

/** Should the tour open by itself? Only when this browser has never closed it (storage errors: no). */
export function firstVisit(storage: Pick<Storage, 'getItem'> | null): boolean {
  try {
    return storage !== null && storage.getItem(TOUR_KEY) === null;
  } catch {
    return false;
  }
}

export function rememberTourClosed(storage: Pick<Storage, 'setItem'> | null): void {
  try {
    storage?.setItem(TOUR_KEY, 'done');
  } catch {
    // private mode or blocked storage: the tour shows again next time, nothing else breaks
  }
}

export function Tour({ step, onStep, onClose }: { step: number; onStep(n: number): void; onClose(): void }) {
  const s = TOUR_STEPS[Math.min(Math.max(step, 0), TOUR_STEPS.length - 1)]!;
  const last = step >= TOUR_STEPS.length - 1;
  // outline the part of the page the step describes, and bring it into view
  useEffect(() => {
    const el = document.querySelector<HTMLElement>(`[data-testid="${s.target}"]`);
    if (!el) return;
    el.classList.add('tour-target');
    el.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
    return () => el.classList.remove('tour-target');
  }, [s.target]);
  return (
    <section className="tour card" data-testid="tour" aria-label="Tour of the lab" aria-live="polite">
      <p className="tour-count" data-testid="tour-count">
        Tour {step + 1} of {TOUR_STEPS.length}
      </p>
      <h2 data-testid="tour-title">{s.title}</h2>
      <p>{s.text}</p>
      <div className="buttons">
        <button type="button" onClick={() => onStep(step - 1)} disabled={step === 0} data-testid="tour-back">
          Back
        </button>
        {last ? (
          <button type="button" className="primary" onClick={onClose} data-testid="tour-done">
            Done
          </button>
        ) : (
          <button type="button" className="primary" onClick={() => onStep(step + 1)} data-testid="tour-next">
            Next
          </button>
        )}
        <button type="button" className="small link" onClick={onClose} data-testid="tour-skip">
          Skip the tour
        </button>
      </div>
    </section>
  );
}
