import { describe, expect, it } from 'vitest';
import { BASE_FINDING_CODES, BASE_FINDINGS, BASE_LEVELS, isBaseLevel } from '../../src/base/index.js';

describe('BASE_FINDINGS', () => {
  it.each(BASE_FINDING_CODES.map((code) => [code, BASE_FINDINGS[code]] as const))('%s has a stable name and a one-line explanation', (code, text) => {
    expect(code).toMatch(/^BASE_[A-Z]+(_[A-Z]+)*$/);
    expect(text.length).toBeGreaterThan(10);
    expect(text).not.toMatch(/\n/);
  });

  it('lists every code once', () => {
    expect(new Set(BASE_FINDING_CODES).size).toBe(Object.keys(BASE_FINDINGS).length);
  });
});

describe('BASE_LEVELS', () => {
  it('are the four §5.1 levels, innermost first', () => {
    expect(BASE_LEVELS).toEqual(['base-element', 'content-location', 'retrieval', 'default']);
    expect(isBaseLevel('retrieval')).toBe(true);
    expect(isBaseLevel('content-base')).toBe(false);
    expect(isBaseLevel(undefined)).toBe(false);
  });
});
