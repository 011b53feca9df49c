/**
 * Keyboard helpers of the lab: which focused elements take typed keys (the page's shortcuts
 * leave those alone), and moving a cursor between the cores of a mesh with the arrow keys.
 */

/** Input types whose keys are typing (text fields); others (checkbox, button, range...) are not. */
const TEXT_INPUTS = new Set(['text', 'number', 'search', 'email', 'url', 'password', 'tel', 'date', 'datetime-local', 'month', 'time', 'week', '']);

interface ElementLike {
  tagName?: string;
  isContentEditable?: boolean;
  type?: string;
  getAttribute?(name: string): string | null;
}

/** Whether keys pressed on `target` are text typing: a text or number input, a textarea, a select, contenteditable. */
export function isTypingTarget(target: unknown): boolean {
  const el = target as ElementLike | null;
  if (!el || typeof el.tagName !== 'string') return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return TEXT_INPUTS.has((el.type ?? el.getAttribute?.('type') ?? '').toLowerCase());
  return false;
}

export type Arrow = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown';
export function isArrow(key: string): key is Arrow {
  return key === 'ArrowLeft' || key === 'ArrowRight' || key === 'ArrowUp' || key === 'ArrowDown';
}

/**
 * The core an arrow key moves to from `core` on a `width` x `height` mesh of tiles with
 * `perTile` cores each (core c on tile floor(c / perTile)): left and right step through the
 * cores of a row of tiles (into the next tile at a tile's edge), up and down go to the same
 * core of the tile above or below. At the mesh's edge the cursor stays. From no core (null)
 * any arrow goes to core 0.
 */
export function moveCore(core: number | null, key: Arrow, width: number, height: number, perTile: number): number {
  const cores = width * height * perTile;
  if (core === null || !(core >= 0 && core < cores)) return 0;
  const tile = Math.floor(core / perTile);
  const k = core % perTile;
  const tx = tile % width;
  const ty = Math.floor(tile / width);
  if (key === 'ArrowLeft') {
    if (k > 0) return core - 1;
    return tx > 0 ? (tile - 1) * perTile + perTile - 1 : core;
  }
  if (key === 'ArrowRight') {
    if (k < perTile - 1) return core + 1;
    return tx < width - 1 ? (tile + 1) * perTile : core;
  }
  if (key === 'ArrowUp') return ty > 0 ? (tile - width) * perTile + k : core;
  return ty < height - 1 ? (tile + width) * perTile + k : core;
}
