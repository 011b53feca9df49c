/** An application not written yet: every use is an error naming it. */
import type { DsmApp } from '../api';

export function notWritten(name: string, title: string): DsmApp {
  const fail = (): never => {
    throw new Error(`dsm app ${name} (${title}) is not written yet`);
  };
  return {
    name,
    title,
    sizes: { small: null, 'paper-sm': null, 'paper-lg': null },
    describe: () => 'not written yet',
    locks: () => 0,
    *run() {
      fail();
    },
    *check() {
      return fail();
    },
  };
}
