// RFC 3986 §5.2 resolution against every resolve.* file of the shared corpus.

import { tryNormalize, tryResolve } from '../../src/entry/uri.js';
import type { CorpusCase } from '../support/corpus.js';
import { describeCorpusSuite, type DeviationLists, type Outcome } from '../support/conformance.js';

const DEVIATIONS: DeviationLists = {
  byCase: {
    // DEVIATION(§5.3), docs/deviations.md: `f:/a` + `.//g` gives path `//g` with no
    // authority; recomposed literally (`f://g`) it reads back with authority `g`. We
    // write `f:/.//g` (as uriparser and WHATWG do) so the target survives a round trip.
    'network-uri-resolve:78': 'path "//g" without authority written "/.//g" (§5.3 defect)',
    'network-uri-resolve:83': 'path "//g" without authority written "/.//g" (§5.3 defect)',
  },
  byVerdict: {
    'input-invalid':
      'base or reference is not RFC 3986 syntax: the core is strict and rejects it (lenient parsers repair it; html/ cleans browser-style hrefs)',
    'base-not-absolute': 'RFC 3986 §5.1 requires an absolute base; we refuse with ERR_URI_NOT_ABSOLUTE',
    'expected-error': 'the source errors where RFC 3986 gives a result; we give the RFC 3986 result',
  },
  // Files whose remaining `disagree` cases follow that source's own rules:
  byFile: {
    'resolve.cpython-urljoin.jsonl':
      'urljoin: RFC 1808 fragment inheritance for "" and legacy handling of empty authorities ("//", "http:///w")',
    'resolve.iri-string.jsonl': 'iri-string percent_encoded_dots mode: %2E read as "." during resolution (§5.2.4 does not)',
    'resolve.uriparser.jsonl':
      'uriparser keeps a rootless base path rootless (`foo:a/b` + `../c` → `foo:c`); strict §5.2.3/§5.2.4 gives `foo:/c`',
    'resolve.fluent-uri.jsonl':
      'fluent-uri: treats %2E as a dot and removes dot segments of the base first (its fixes of RFC 3986 defects)',
    'resolve.whatwg-wpt.jsonl': 'WHATWG URL Standard: special schemes, IDNA, backslashes, port/host rules',
    'resolve.httpclient5.jsonl': 'java.net.URI (RFC 2396) abnormal-example answers',
    'resolve.rfc2396bis-draft.jsonl': 'the 2003 draft: RFC 2396-era answers RFC 3986 changed',
  },
};

function run(c: CorpusCase): Outcome {
  const base = c['base'] as string;
  const ref = c['ref'] as string;
  const expected = c['expected'] as string | null;
  const verdict = c.rfc3986?.verdict;
  const result = tryResolve(ref, base, verdict === 'agree-non-strict' ? { strict: false } : undefined);
  if (expected === null) return { pass: !result.ok, got: result.ok ? result.value : result.error.code };
  if (!result.ok) return { pass: false, got: result.error };
  if (result.value === expected) return { pass: true, got: result.value };
  if (verdict === 'agree-modulo-normalization') {
    // The source normalizes its output: compare with our syntax and scheme rungs.
    for (const rung of ['syntax', 'scheme'] as const) {
      const normalized = tryNormalize(result.value, { rung });
      if (normalized.ok && normalized.value === expected) return { pass: true, got: normalized.value };
    }
  }
  return { pass: false, got: result.value };
}

describeCorpusSuite('resolve', run, DEVIATIONS);
