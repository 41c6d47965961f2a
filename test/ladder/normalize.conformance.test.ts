// RFC 3986 §6.2.2/§6.2.3 normalization, §5.2.4 remove_dot_segments and
// equivalence against every normalize.* file of the shared corpus.

import { removeDotSegments, tryCompare, tryNormalize, type Rung } from '../../src/entry/uri.js';
import type { CorpusCase } from '../support/corpus.js';
import { describeCorpusSuite, type DeviationLists, type Outcome } from '../support/conformance.js';

const DEVIATIONS: DeviationLists = {
  byCase: {
    // fluent-uri leaves dot segments of relative references alone. We remove the
    // ones whose removal cannot change the target against any base (§6.2.2.3 with
    // §5.2; property-tested), as uriparser and Addressable do.
    'fluent-uri-normalize:10': 'fluent-uri keeps dot segments in relative references',
    'fluent-uri-normalize:11': 'fluent-uri keeps dot segments in relative references',
    // DEVIATION(§5.3): dot removal leaves path "//y" without authority; written
    // literally (`file://y`) it would read back with authority `y`. We write `/.//y`.
    'network-uri-normalize:18': 'path "//y" without authority written "/.//y" (§5.3 defect)',
    // `abc/..` is the base's directory; the empty reference "" is the base itself
    // (§4.4 same-document reference). uriparser's "" changes the target; ours is "./".
    'uriparser-normalize:21': 'uriparser normalizes "abc/.." to "", which names the base document',
    'uriparser-normalize:22': 'uriparser normalizes "abc/../" to "", which names the base document',
  },
  byVerdict: {
    'input-invalid': 'input is not RFC 3986 syntax: the core is strict and rejects it',
    'expected-error': 'the source errors where RFC 3986 normalization gives a result',
  },
  // Files whose `disagree` cases follow that source's own rules:
  byFile: {
    'normalize.addressable.jsonl':
      'Addressable: drops an empty "?"/"#" (§6.2.3 keeps them), unwraps feed: URIs, compares after Unicode NFC',
    'normalize.fast-uri.jsonl':
      'fast-uri: scheme handlers (URN namespace case, ws/wss drop fragments), IPv4 with leading zeros as an address (a reg-name in RFC 3986), %2E%2E kept as data',
    'normalize.uri-js.jsonl': 'uri-js: scheme handlers (ws/wss drop fragments), IPv4 with leading zeros read as an address',
    'normalize.fluent-uri.jsonl':
      'fluent-uri: keeps dot segments of rootless paths, writes IPv4-compatible IPv6 in hex, RFC 3987 IRI output',
    'normalize.iri-string.jsonl':
      'iri-string: RFC 3987 IRI normalization (decodes UTF-8 triplets), keeps dot segments of rootless paths and host case with non-ASCII',
    'normalize.urlcanon-path-dots.jsonl': 'WHATWG path-dot resolution for special and non-special schemes',
    'normalize.purell.jsonl': 'purell flags: aggressive, non-RFC normalizations',
  },
};

// The corpus's `matches` names the reference levels equal to `expected`; the
// record's own `level` is what the source called it.
const LEVEL_TO_RUNG: Readonly<Record<string, Rung>> = {
  syntax: 'syntax',
  'syntax+scheme': 'scheme',
  'syntax+remove_dot_segments-on-relative-path': 'syntax',
};

function run(c: CorpusCase): Outcome | undefined {
  if (c.op === 'remove_dot_segments') {
    const got = removeDotSegments(c['input'] as string);
    return { pass: got === c['expected'], got };
  }
  if (c.op === 'equivalent') {
    const result = tryCompare(c['a'] as string, c['b'] as string);
    const equivalent = result.ok && result.value.equivalent;
    return { pass: equivalent === c['expected'], got: result.ok ? result.value : result.error };
  }
  if (c.op !== 'normalize') return undefined;
  const level = c['level'] as string;
  const rungs = new Set<Rung>();
  if (LEVEL_TO_RUNG[level]) rungs.add(LEVEL_TO_RUNG[level]);
  for (const match of c.rfc3986?.matches ?? []) if (LEVEL_TO_RUNG[match]) rungs.add(LEVEL_TO_RUNG[match]);
  if (rungs.size === 0) return undefined; // partial / aggressive / whatwg levels are not RFC 3986 rungs
  let got: unknown;
  for (const rung of rungs) {
    const result = tryNormalize(c['input'] as string, { rung });
    got = result.ok ? result.value : result.error;
    if (c['expected'] === null ? !result.ok : result.ok && result.value === c['expected']) return { pass: true, got };
  }
  return { pass: false, got };
}

describeCorpusSuite('normalize', run, DEVIATIONS);
