import { describe, expect, it } from 'vitest';
import {
  CODE_VERDICTS,
  DEFAULT_STATUS_POLICY,
  formatStatusPolicy,
  parseStatusPolicy,
  verdictOf,
  verdictOfRow,
  type VerdictFacts,
} from '../../src/crawl/verdict.js';
import { OUTCOME_TABLE } from '../../src/crawl/outcome-table.js';
import { OptionError } from '../../src/errors.js';
import type { UrlRole } from '../../src/store/index.js';

const facts = (status: number | undefined, errorCode?: string, role: UrlRole = 'page'): VerdictFacts => ({ status, errorCode, role });

describe('verdictOf: the defaults', () => {
  it.each([
    [200, 'page', 'ok'],
    [204, 'external', 'ok'],
    // A redirect the crawl did not follow again (its target known): judged on the target's own row.
    [301, 'page', 'ok'],
    [304, 'external', 'ok'],
    [404, 'page', 'broken'],
    [404, 'external', 'broken'],
    [410, 'resource', 'broken'],
    [410, 'external', 'broken'],
    [400, 'page', 'broken'],
    [401, 'resource', 'broken'],
    [403, 'page', 'broken'],
    [451, 'page', 'broken'],
    [400, 'external', 'unverified'],
    [401, 'external', 'unverified'],
    [403, 'external', 'unverified'],
    [405, 'external', 'unverified'],
    [451, 'external', 'unverified'],
    [999, 'external', 'unverified'],
    [999, 'page', 'unverified'],
    [408, 'page', 'unverified'],
    [429, 'page', 'unverified'],
    [429, 'external', 'unverified'],
    [500, 'page', 'unverified'],
    [503, 'external', 'unverified'],
    [504, 'resource', 'unverified'],
    [101, 'page', 'unverified'],
  ] as const)('status %i of a %s URL: %s', (status, role, verdict) => {
    expect(verdictOf(facts(status, undefined, role))).toBe(verdict);
  });

  it.each([
    ['ERR_FETCH_DNS', 'broken'],
    ['ERR_FETCH_DNS_TEMPORARY', 'unverified'],
    ['ERR_FETCH_CONNECTION_REFUSED', 'unverified'],
    ['ERR_FETCH_NETWORK', 'unverified'],
    ['ERR_FETCH_CONNECT_TIMEOUT', 'unverified'],
    ['ERR_FETCH_HEADERS_TIMEOUT', 'unverified'],
    ['ERR_FETCH_TLS', 'unverified'],
    ['ERR_CRAWL_ROBOTS_DISALLOWED', 'unverified'],
    ['ERR_CRAWL_ROBOTS_UNREACHABLE', 'unverified'],
    ['ERR_CRAWL_PRIVATE_ADDRESS', 'unverified'],
    ['ERR_CRAWL_HOST_UNREACHABLE', 'unverified'],
    ['ERR_CRAWL_FETCHER_THREW', 'unverified'],
    ['ERR_FETCH_INVALID_URL', 'broken'],
    // A code the table does not know (an index written by a newer program): nothing is proved.
    ['ERR_FETCH_SOMETHING_NEW', 'unverified'],
  ])('no response, %s: %s', (code, verdict) => {
    expect(verdictOf(facts(undefined, code, 'external'))).toBe(verdict);
    expect(verdictOf(facts(undefined, code, 'page'))).toBe(verdict);
  });

  it('a redirect chain that leads nowhere keeps its 3xx and is broken', () => {
    expect(verdictOf(facts(301, 'ERR_FETCH_REDIRECT_LOOP'))).toBe('broken');
    expect(verdictOf(facts(302, 'ERR_FETCH_TOO_MANY_REDIRECTS', 'external'))).toBe('broken');
    expect(verdictOf(facts(301, 'ERR_FETCH_REDIRECT_WITHOUT_LOCATION'))).toBe('broken');
    expect(verdictOf(facts(301, 'ERR_FETCH_BAD_LOCATION'))).toBe('broken');
  });

  it('a body cut, late or undecodable after its status came is judged by the status; without one, unverified', () => {
    expect(verdictOf(facts(200, 'ERR_FETCH_BODY_TOO_LARGE'))).toBe('ok');
    expect(verdictOf(facts(200, 'ERR_FETCH_CONTENT_ENCODING'))).toBe('ok');
    expect(verdictOf(facts(200, 'ERR_FETCH_BODY_TRUNCATED'))).toBe('ok');
    expect(verdictOf(facts(undefined, 'ERR_FETCH_REQUEST_TIMEOUT'))).toBe('unverified');
    expect(verdictOf(facts(404, 'ERR_FETCH_BODY_TRUNCATED'))).toBe('broken');
    expect(verdictOf(facts(503, 'ERR_FETCH_TOO_SLOW'))).toBe('unverified');
  });

  it('a 304 revalidation is ok', () => {
    expect(verdictOf({ status: 200, errorCode: undefined, role: 'page', isNotModified: true })).toBe('ok');
  });

  it('every fetch and crawl code the outcome table knows has a verdict', () => {
    expect(Object.keys(CODE_VERDICTS).sort()).toEqual(Object.keys(OUTCOME_TABLE).sort());
  });
});

describe('verdictOf: a status policy', () => {
  it('overrides a single status, whatever the role', () => {
    const policy = parseStatusPolicy('403=broken,999=ok');
    expect(verdictOf(facts(403, undefined, 'external'), policy)).toBe('broken');
    expect(verdictOf(facts(999, undefined, 'external'), policy)).toBe('ok');
    expect(verdictOf(facts(999, undefined, 'page'), policy)).toBe('ok');
    expect(verdictOf(facts(401, undefined, 'external'), policy)).toBe('unverified');
  });

  it('overrides a class; a single status beats its class', () => {
    const policy = parseStatusPolicy('5xx=broken,503=unverified,4xx=ok');
    expect(verdictOf(facts(500, undefined, 'external'), policy)).toBe('broken');
    expect(verdictOf(facts(503, undefined, 'external'), policy)).toBe('unverified');
    expect(verdictOf(facts(404, undefined, 'page'), policy)).toBe('ok');
  });

  it.each(['ERR_FETCH_TLS_CERT_EXPIRED', 'ERR_FETCH_TLS_SELF_SIGNED', 'ERR_FETCH_TLS_HOSTNAME', 'ERR_FETCH_TLS_UNTRUSTED'])(
    'a certificate refused (%s): broken on the crawl\'s own hosts, as a browser refuses it; unverified on an external one',
    (code) => {
      expect(verdictOf(facts(undefined, code, 'page'))).toBe('broken');
      expect(verdictOf(facts(undefined, code, 'resource'))).toBe('broken');
      expect(verdictOf(facts(undefined, code, 'external'))).toBe('unverified');
    },
  );

  it('a proxy that failed says nothing of the target: unverified', () => {
    expect(verdictOf(facts(undefined, 'ERR_FETCH_PROXY', 'page'))).toBe('unverified');
    expect(verdictOf(facts(undefined, 'ERR_FETCH_PROXY', 'external'))).toBe('unverified');
  });

  it('does not override what an error code decides', () => {
    const policy = parseStatusPolicy('3xx=broken,301=ok');
    expect(verdictOf(facts(301, 'ERR_FETCH_REDIRECT_LOOP'), policy)).toBe('broken');
    expect(verdictOf(facts(undefined, 'ERR_FETCH_TLS'), parseStatusPolicy('5xx=broken'))).toBe('unverified');
  });
});

describe('parseStatusPolicy', () => {
  it('reads statuses and classes, spaces and case aside; empty is no override', () => {
    const policy = parseStatusPolicy(' 403 = broken , 999=OK,5xx=unverified ');
    expect(policy.statuses).toEqual({ 403: 'broken', 999: 'ok' });
    expect(policy.classes).toEqual({ 5: 'unverified' });
    expect(formatStatusPolicy(policy)).toBe('403=broken,999=ok,5xx=unverified');
    expect(parseStatusPolicy('')).toEqual(DEFAULT_STATUS_POLICY);
  });

  it.each([
    ['403=gone', '`403=gone` is not one'],
    ['99=ok', '`99=ok` is not one'],
    ['1000=ok', '`1000=ok` is not one'],
    ['4XX=ok,40x=ok', '`40x=ok` is not one'],
    ['403', '`403` is not one'],
    ['403=ok,,404=ok', '`` is not one'],
    ['403=ok,403=broken', '`403` is given twice'],
    ['5xx=ok,5xx=broken', '`5xx` is given twice'],
  ])('refuses %j with one line', (text, why) => {
    let error: unknown;
    try {
      parseStatusPolicy(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(OptionError);
    expect((error as OptionError).code).toBe('ERR_API_BAD_OPTION');
    expect((error as Error).message).toContain(why);
    expect((error as Error).message).not.toContain('\n');
  });
});

describe('verdictOfRow', () => {
  it('keeps the recorded verdict; derives one for a row written before verdicts were, with the default policy', () => {
    expect(verdictOfRow({ status: 403, errorCode: undefined, isNotModified: false, verdict: 'ok' }, 'external')).toBe('ok');
    expect(verdictOfRow({ status: 403, errorCode: undefined, isNotModified: false, verdict: undefined }, 'external')).toBe('unverified');
    expect(verdictOfRow({ status: 403, errorCode: undefined, isNotModified: false, verdict: undefined }, 'page')).toBe('broken');
  });
});
