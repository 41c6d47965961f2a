// RFC 3986 §3/§4/Appendix A parsing against every parse.* file of the shared corpus.

import { isIPv4Address, isIPv6Address, tryParse, type UriReference } from '../../src/entry/uri.js';
import type { CorpusCase } from '../support/corpus.js';
import { describeCorpusSuite, type DeviationLists, type Outcome } from '../support/conformance.js';

const DEVIATIONS: DeviationLists = {
  byCase: {},
  byVerdict: {},
  // Files whose `disagree` cases follow that source's own rules:
  byFile: {
    'parse.addressable.jsonl': 'Addressable: accepts a percent-encoded port, rejects "http:" (valid: empty hier-part)',
    'parse.fast-uri.jsonl':
      'fast-uri: lenient parse (raw spaces and newlines, RFC 6874 zone ids), normalizes hosts in its output, rejects "http://"',
    'parse.go-net-url.jsonl': 'Go net/url: RFC 6874 zone ids; rejects percent-encoded reg-names',
    'parse.iri-string.jsonl': 'iri-string: RFC 3987 IRIs (raw non-ASCII host)',
    'parse.python-rfc3986.jsonl': 'python-rfc3986: RFC 6874 zone ids; rejects 256.256.256.256, a valid reg-name',
    'parse.uri-js.jsonl': 'uri-js: accepts control characters in fragments and RFC 6874 zone ids',
    'parse.whatwg-wpt.jsonl': 'WHATWG URL Standard: not RFC 3986 (checked only where its verdict is agree)',
  },
};

function validFor(production: string, ref: UriReference): boolean {
  switch (production) {
    case 'URI':
      return ref.scheme !== undefined;
    case 'absolute-URI':
      return ref.scheme !== undefined && ref.fragment === undefined;
    case 'relative-ref':
      return ref.scheme === undefined;
    default:
      return true;
  }
}

function run(c: CorpusCase): Outcome | undefined {
  const input = c['input'] as string;
  const production = c['production'] as string;
  if (production === 'IPv4address') return outcome(isIPv4Address(input) === c['valid'], isIPv4Address(input));
  if (production === 'IPv6address') return outcome(isIPv6Address(input) === c['valid'], isIPv6Address(input));
  if (production === 'whatwg-url') {
    // Only the RFC-side claim is ours to check: is the input a valid URI (§3)?
    const claimed = c.rfc3986?.['valid_uri'] as boolean | undefined;
    if (claimed === undefined) return undefined;
    const parsed = tryParse(input);
    const isUri = parsed.ok && parsed.value.scheme !== undefined;
    return outcome(isUri === claimed, isUri);
  }
  const parsed = tryParse(input);
  const valid = parsed.ok && validFor(production, parsed.value);
  if (valid !== c['valid']) return outcome(false, parsed.ok ? { valid } : parsed.error);
  const components = c['components'] as Record<string, string | null> | undefined;
  if (parsed.ok && components) {
    for (const [key, expected] of Object.entries(components)) {
      const got = parsed.value[key as keyof UriReference] ?? null;
      if (got !== expected) return outcome(false, { [key]: got });
    }
  }
  return outcome(true, valid);
}

function outcome(pass: boolean, got: unknown): Outcome {
  return { pass, got };
}

describeCorpusSuite('parse', run, DEVIATIONS);
