import { describe, expect, it } from 'vitest';
import { isPrivateUrl, parseIPv4Number, privateAddressOf } from '../../src/crawl/index.js';

describe('RFC 3986 §7.4 rare IPv4 forms read as inet_aton reads them', () => {
  it.each([
    ['127.0.0.1', 0x7f000001],
    ['0x7f.1', 0x7f000001],
    ['0X7F.0.0.1', 0x7f000001],
    ['2130706433', 0x7f000001],
    ['0177.0.0.1', 0x7f000001],
    ['017700000001', 0x7f000001],
    ['0x7f000001', 0x7f000001],
    ['127.1', 0x7f000001],
    ['127.0.1', 0x7f000001],
    ['127.0.0.1.', 0x7f000001],
    ['10.0x10.1', 0x0a100001],
    ['0', 0],
    ['0x', 0],
    ['192.168.0x1.01', 0xc0a80101],
    ['255.255.255.255', 0xffffffff],
  ])('%s', (host, value) => {
    expect(parseIPv4Number(host)).toBe(value);
  });

  it.each(['example.com', '1.2.3.4.5', '256.1.1.1', '1.2.3.256', '4294967296', '08', '0x1g', '1..2', '', 'a.1', '1.2.3.4x'])(
    '%s is not an IPv4 address',
    (host) => {
      expect(parseIPv4Number(host)).toBeUndefined();
    },
  );
});

describe('privateAddressOf', () => {
  it.each([
    ['0x7f.1', 'loopback', '127.0.0.1'],
    ['2130706433', 'loopback', '127.0.0.1'],
    ['0177.0.0.1', 'loopback', '127.0.0.1'],
    ['127.255.255.254', 'loopback', '127.255.255.254'],
    ['localhost', 'loopback', 'localhost'],
    ['LOCALHOST.', 'loopback', 'localhost'],
    ['app.localhost', 'loopback', 'app.localhost'],
    ['10.1.2.3', 'private', '10.1.2.3'],
    ['172.16.0.1', 'private', '172.16.0.1'],
    ['172.31.255.255', 'private', '172.31.255.255'],
    ['192.168.1.1', 'private', '192.168.1.1'],
    ['0xc0a80101', 'private', '192.168.1.1'],
    ['169.254.169.254', 'link-local', '169.254.169.254'],
    ['100.64.0.1', 'shared', '100.64.0.1'],
    ['0.0.0.0', 'unspecified', '0.0.0.0'],
    ['0', 'unspecified', '0.0.0.0'],
    ['224.0.0.1', 'multicast', '224.0.0.1'],
    ['255.255.255.255', 'reserved', '255.255.255.255'],
    ['[::1]', 'loopback', '::1'],
    ['[0:0:0:0:0:0:0:1]', 'loopback', '0:0:0:0:0:0:0:1'],
    ['[::]', 'unspecified', '::'],
    ['[fe80::1]', 'link-local', 'fe80::1'],
    ['[FEBF::1]', 'link-local', 'febf::1'],
    ['[fc00::1]', 'unique-local', 'fc00::1'],
    ['[fd12:3456::1]', 'unique-local', 'fd12:3456::1'],
    ['[fec0::1]', 'site-local', 'fec0::1'],
    ['[ff02::1]', 'multicast', 'ff02::1'],
    ['[::ffff:127.0.0.1]', 'loopback', '::ffff:127.0.0.1'],
    ['[::ffff:7f00:1]', 'loopback', '::ffff:7f00:1'],
    ['[::ffff:10.0.0.1]', 'private', '::ffff:10.0.0.1'],
    ['[::127.0.0.1]', 'loopback', '::127.0.0.1'],
    ['[64:ff9b::192.168.0.1]', 'private', '64:ff9b::192.168.0.1'],
  ])('%s is %s', (host, kind, address) => {
    expect(privateAddressOf(host)).toEqual({ kind, address });
  });

  it.each(['example.com', '8.8.8.8', '0x08080808', '172.32.0.1', '100.128.0.1', '[2001:db8::1]', '[::ffff:8.8.8.8]', '[64:ff9b::8.8.8.8]', 'localhost.example', '[v1.x]', '[::1'])(
    '%s is public (or no address)',
    (host) => {
      expect(privateAddressOf(host)).toBeUndefined();
    },
  );

  it('isPrivateUrl reads the host at the syntax rung: percent-encoded digits count', () => {
    expect(isPrivateUrl('http://%31%32%37.0.0.1/')).toBe(true);
    expect(isPrivateUrl('http://LocalHost:8080/x')).toBe(true);
    expect(isPrivateUrl('http://example.com/')).toBe(false);
    expect(isPrivateUrl('mailto:a@127.0.0.1')).toBe(false);
  });
});
