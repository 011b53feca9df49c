/**
 * The snapshot's dealing, the same on every chip (paper 000 lines 624-628 and 1303-1305): object
 * #index goes to core index mod cores, like cards from a dealer, except the boot context, which
 * stays with the main core where the interpreter starts; the replication mode decides whether
 * a dealt object goes to that core's read-write heap or to the read-mostly heap (methods only,
 * everything but contexts, or one global heap). Contexts are never read-mostly.
 */
export const REPLICATION = ['none', 'methods', 'all-but-contexts', 'global'] as const;
export type Replication = (typeof REPLICATION)[number];

/** Where the dealt snapshot object #index (its role `what`) goes: its core, and whether in the read-mostly heap. */
export function dealTo(cores: number, replication: Replication, mainCore: number, index: number, what: string): { core: number; readMostly: boolean } {
  const core = what === 'context' ? mainCore : index % cores;
  const readMostly = what !== 'context' && (replication === 'all-but-contexts' || replication === 'global' || (replication === 'methods' && what === 'method'));
  return { core, readMostly };
}
