import { describe, expect, it } from 'vitest';
import { AliasMap, normalize, resourceKey } from '../../src/entry/uri.js';
import { ALIAS_EVIDENCE, ALIAS_MAKING_EVIDENCE, CONTENT_EVIDENCE, EVIDENCE_WEIGHT, RESOURCE_EVIDENCE, isAliasMaking, splitByEvidence } from '../../src/ladder/index.js';
import { parseUriReference } from '../../src/uri/index.js';

describe('AliasMap (RFC 3986 §6.2.4, the pure part)', () => {
  it('follows a chain to its end and returns the evidence in order', () => {
    const map = new AliasMap();
    map.add({ from: 'A', to: 'B', evidence: 'redirect' });
    map.add({ from: 'B', to: 'C', evidence: 'content-location' });
    const resolution = map.resolve('A');
    expect(resolution.key).toBe('C');
    expect(resolution.isCycle).toBe(false);
    expect(resolution.chain.map((e) => e.evidence)).toEqual(['redirect', 'content-location']);
    expect(map.resolve('Z')).toEqual({ key: 'Z', chain: [], isCycle: false });
  });

  it('is cycle-safe: a loop names its least member', () => {
    const map = new AliasMap();
    map.add({ from: 'X', to: 'C', evidence: 'redirect' });
    map.add({ from: 'C', to: 'B', evidence: 'redirect' });
    map.add({ from: 'B', to: 'D', evidence: 'redirect' });
    map.add({ from: 'D', to: 'C', evidence: 'redirect' });
    for (const start of ['X', 'B', 'C', 'D']) {
      const resolution = map.resolve(start);
      expect(resolution.isCycle).toBe(true);
      expect(resolution.key).toBe('B');
    }
  });

  it('records canonical claims but does not follow them by default', () => {
    const map = new AliasMap();
    map.add({ from: 'A', to: 'B', evidence: 'canonical' });
    expect(map.resolve('A').key).toBe('A');
    expect(map.get('A')?.evidence).toBe('canonical');
    expect(new AliasMap({ follow: ['canonical'] }).size).toBe(0);
    const following = new AliasMap({ follow: ['canonical'] });
    following.add({ from: 'A', to: 'B', evidence: 'canonical' });
    expect(following.resolve('A').key).toBe('B');
  });

  it('revokes an alias and ignores self-edges', () => {
    const map = new AliasMap();
    map.add({ from: 'A', to: 'A', evidence: 'redirect' });
    expect(map.size).toBe(0);
    map.add({ from: 'A', to: 'B', evidence: 'redirect' });
    expect(map.delete('A')).toBe(true);
    expect(map.resolve('A').key).toBe('A');
  });

  it('resourceKey drops the fragment (§6.1) and applies the aliases', () => {
    const parsed = parseUriReference('HTTP://Host:80/a#x');
    if (!parsed.ok) throw new Error('unreachable');
    expect(resourceKey(parsed.value)).toBe('http://host/a');
    const map = new AliasMap();
    map.add({ from: 'http://host/a', to: 'http://host/a/', evidence: 'redirect' });
    expect(resourceKey(parsed.value, map)).toBe('http://host/a/');
    expect(normalize('HTTP://Host:80/a#x', { rung: 'protocol', aliases: map })).toBe('http://host/a/#x');
  });
});

describe('splitByEvidence', () => {
  it('gives "alias" one meaning: what a server proved, content evidence apart, and a canonical claim as no alias at all', () => {
    expect(splitByEvidence({ redirect: 4, 'content-location': 2, canonical: 526, digest: 1, rule: 3 })).toEqual({
      protocol: { redirect: 4, 'content-location': 2 },
      content: { digest: 1, rule: 3 },
      claimed: { canonical: 526 },
    });
  });
});

describe('which evidence makes an alias', () => {
  it('a server\'s proof and content evidence do; a canonical claim does not', () => {
    expect(ALIAS_EVIDENCE.filter(isAliasMaking)).toEqual(['redirect', 'content-location', 'digest', 'rule']);
    expect(ALIAS_MAKING_EVIDENCE).toEqual(['redirect', 'content-location', 'digest', 'rule']);
    expect([...RESOURCE_EVIDENCE]).toEqual(['redirect', 'content-location']);
    expect([...CONTENT_EVIDENCE]).toEqual(['digest', 'rule']);
    expect(ALIAS_EVIDENCE.map((evidence) => EVIDENCE_WEIGHT[evidence])).toEqual(['protocol', 'protocol', 'claim', 'content', 'content']);
  });
});
