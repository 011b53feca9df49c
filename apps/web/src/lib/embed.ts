/**
 * Embeds of guided experiments (pure functions; pages/Embed.tsx draws them).
 *
 * Contract.
 * - `embedIdFrom(search, hash)`: the guided id an embed URL names, `?embed=<id>` or
 *   `#/embed/<id>`; null when the URL is not an embed. The id is only looked up in the
 *   registry and shown as text; nothing from the URL is executed or injected as HTML.
 * - `embedUrl(pageUrl, id)`: the embed URL of entry `id` on the lab at `pageUrl` (its origin and
 *   path; query and hash dropped). `labUrl(pageUrl)`: the full lab there.
 * - `embedSnippet(url, title)`: the `<iframe ...>` text to paste into a course page, with every
 *   attribute value escaped (& " < >), lazy loading and a fixed size.
 * - `embedControlOf(entry)`: the entry's one control: its declared `embed.control` (null: none),
 *   else its first swept parameter, else none. `controlChoices` lists a control's values.
 * - `embedView(entry)`: what the embed shows: its declared `embed.view`, else the chart of the
 *   whole sweep ('chart') for an entry of more than one experiment, else the chip view of its
 *   one run ('chip').
 */
import type { EmbedControl, GuidedExperiment, ParamValue } from '@manycore/workloads';

export const EMBED_WIDTH = 760;
export const EMBED_HEIGHT = 620;

export function embedIdFrom(search: string, hash: string): string | null {
  const q = new URLSearchParams(search).get('embed');
  if (q !== null) return q;
  const m = /^#\/embed\/(.*)$/.exec(hash);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1]!;
  }
}

function base(pageUrl: string): URL {
  const u = new URL(pageUrl);
  u.search = '';
  u.hash = '';
  return u;
}

export function labUrl(pageUrl: string): string {
  return base(pageUrl).toString();
}

export function embedUrl(pageUrl: string, id: string): string {
  const u = base(pageUrl);
  u.searchParams.set('embed', id);
  return u.toString();
}

function attr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function embedSnippet(url: string, title: string, width = EMBED_WIDTH, height = EMBED_HEIGHT): string {
  return `<iframe src="${attr(url)}" title="${attr(`Manycore Lab: ${title}`)}" width="${width}" height="${height}" loading="lazy" style="border: 1px solid #ccc; border-radius: 6px"></iframe>`;
}

export function embedView(entry: GuidedExperiment): 'chip' | 'chart' {
  return entry.embed?.view ?? (entry.experiments.length > 1 ? 'chart' : 'chip');
}

export function embedControlOf(entry: GuidedExperiment): EmbedControl | null {
  if (entry.embed && entry.embed.control !== undefined) return entry.embed.control;
  return entry.sweep ? { param: entry.sweep.param } : null;
}

/**
 * The values a control offers: a swept parameter's values (each picks that run of the sweep),
 * or null for a parameter the entry does not sweep (typed in) and for an island divisor (the
 * chip's divisors, known once the chip resolves).
 */
export function controlChoices(entry: GuidedExperiment, control: EmbedControl): ParamValue[] | null {
  if ('param' in control && entry.sweep && entry.sweep.param === control.param) return entry.sweep.values;
  return null;
}

/** A typed-in parameter value: a number when it reads as one, true / false, else the text. */
export function parseParamValue(text: string): ParamValue {
  const t = text.trim();
  if (t === 'true' || t === 'false') return t === 'true';
  if (t !== '' && Number.isFinite(Number(t))) return Number(t);
  return t;
}
