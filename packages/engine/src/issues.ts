/**
 * Plain words for validation problems: one mapping from zod issues to short phrases with
 * units ("at most 48 cores", "at least 1", "a whole number", "one of: original, improved"),
 * used by the CLI's error lines (formatIssues) and by the web editor beside each field.
 * Units come from the field's name (the lab puts units in names: sizeBytes, quantumNs,
 * meshMHz, hopMeshCycles) or from the counted thing (cores, processes, stages, ...).
 */
import type { z } from 'zod';

/** A unit word: singular and plural. */
interface Unit {
  one: string;
  many: string;
}

const SUFFIX_UNITS: [RegExp, Unit][] = [
  [/Bytes$/, { one: 'byte', many: 'bytes' }],
  [/Ns$/, { one: 'ns', many: 'ns' }],
  [/Ps$/, { one: 'ps', many: 'ps' }],
  [/Us$/, { one: 'us', many: 'us' }],
  [/Ms$/, { one: 'ms', many: 'ms' }],
  [/MHz$/, { one: 'MHz', many: 'MHz' }],
  [/GHz$/, { one: 'GHz', many: 'GHz' }],
  [/Cycles$/, { one: 'cycle', many: 'cycles' }],
  [/Watts$|W$/, { one: 'W', many: 'W' }],
  [/Pages$/, { one: 'page', many: 'pages' }],
];

/** Names that count something: the name is its unit. */
const COUNTED: Record<string, Unit> = {
  cores: { one: 'core', many: 'cores' },
  processes: { one: 'process', many: 'processes' },
  receivers: { one: 'receiver', many: 'receivers' },
  workers: { one: 'worker', many: 'workers' },
  stages: { one: 'stage', many: 'stages' },
  pairs: { one: 'pair', many: 'pairs' },
  hops: { one: 'hop', many: 'hops' },
  slots: { one: 'slot', many: 'slots' },
  loads: { one: 'load', many: 'loads' },
  accesses: { one: 'access', many: 'accesses' },
  rounds: { one: 'round', many: 'rounds' },
  bodies: { one: 'body', many: 'bodies' },
  missesInFlight: { one: 'miss', many: 'misses' },
};

/** The unit of a field from its name (the last part of a dotted path), or null. */
export function unitOf(name: string): Unit | null {
  const last = name.split('.').pop() ?? name;
  if (COUNTED[last]) return COUNTED[last];
  for (const [re, u] of SUFFIX_UNITS) if (re.test(last)) return u;
  return null;
}

/** "48 cores", "1 core", "64 MB" style: a number with the field's unit (bytes in KB/MB/GB when exact). */
export function withUnit(n: number, name: string): string {
  const u = unitOf(name);
  if (!u) return String(n);
  if (u.one === 'byte' && n >= 1024) {
    for (const [size, word] of [[2 ** 30, 'GB'], [2 ** 20, 'MB'], [2 ** 10, 'KB']] as const)
      if (n % size === 0) return `${n / size} ${word}`;
  }
  return `${n} ${n === 1 ? u.one : u.many}`;
}

const TYPE_WORDS: Record<string, string> = {
  int: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  string: 'text',
  object: 'an object',
  array: 'a list',
};

/** A zod issue in plain words (the field it concerns is its path; the phrase does not repeat it). */
export function plainIssue(issue: z.core.$ZodIssue): string {
  const name = issue.path.filter((p) => typeof p === 'string').pop() ?? '';
  switch (issue.code) {
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `at most ${max} character${max === 1 ? '' : 's'}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `at most ${max} item${max === 1 ? '' : 's'}`;
      return `${issue.inclusive === false ? 'less than' : 'at most'} ${withUnit(max, name)}`;
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min === 1 ? 'not empty' : `at least ${min} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `at least ${min} item${min === 1 ? '' : 's'}`;
      return `${issue.inclusive === false ? 'more than' : 'at least'} ${withUnit(min, name)}`;
    }
    case 'invalid_type': {
      const what = TYPE_WORDS[issue.expected] ?? `a ${issue.expected}`;
      return /received undefined/.test(issue.message) ? `required: ${what}` : what;
    }
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${JSON.stringify(issue.values[0])}` : `one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_union': {
      const options = (issue as { options?: unknown[] }).options;
      return Array.isArray(options) && options.length > 0 ? `one of: ${options.map(String).join(', ')}` : 'not one of the accepted forms';
    }
    case 'not_multiple_of':
      return `a multiple of ${withUnit(Number(issue.divisor), name)}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.join(', ')}`;
    case 'invalid_format':
      return `not a valid ${issue.format}`;
    case 'custom': {
      // the schemas' short refinement phrase gets the field's unit (rowBytes: "must be a power of two bytes")
      if (issue.message !== 'a power of two') return issue.message;
      const u = unitOf(name);
      return `must be a power of two${u ? ' ' + u.many : ''}`;
    }
    default:
      return issue.message;
  }
}
