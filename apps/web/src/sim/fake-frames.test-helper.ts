/**
 * For tests: animation frames every `ms` of wall time (what requestAnimationFrame does in a
 * page), in the shape LiveRunOptions.frames takes; `stop()` ends them.
 */
export function fakeFrames(ms: number) {
  const cbs = new Set<(now: number) => void>();
  const timer = setInterval(() => {
    for (const cb of [...cbs]) cb(performance.now());
  }, ms);
  return {
    add(cb: (now: number) => void) {
      cbs.add(cb);
      return () => void cbs.delete(cb);
    },
    stop: () => clearInterval(timer),
  };
}
