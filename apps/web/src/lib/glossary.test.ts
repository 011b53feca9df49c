import { describe, expect, it } from 'vitest';
import { GLOSSARY, TERM_IDS } from './glossary';

describe('glossary', () => {
  it('defines the terms the issue names, each once, in sentences', () => {
    const terms = TERM_IDS.map((id) => GLOSSARY[id].term.toLowerCase());
    for (const t of ['mpb', 'flit', 'epoch', 'quantum', 'divisor', 'lut', 'homing', 'write notice']) expect(terms).toContain(t);
    expect(new Set(terms).size).toBe(terms.length);
    for (const id of TERM_IDS) expect(GLOSSARY[id].definition).toMatch(/^[A-Z0-9].{30,}[.)]$/s);
  });
});
