// Tests never touch the network beyond loopback: in every test process, a DNS lookup
// of a name other than `localhost` fails at once, as it would on a machine with no
// network, and is reported on stderr. Plain JavaScript: vitest loads it as a setup
// file, and spawned CLIs with `node --import` (test/cli/built-cli.ts). (Crawls in tests use 127.0.0.x addresses; a
// fixture that names `example.com` must get an error, not a real answer.)

import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';

const LOCAL_NAMES = new Set(['localhost', 'localhost.']);
const reported = new Set();

function refusal(hostname) {
  if (!reported.has(hostname)) {
    reported.add(hostname);
    process.stderr.write(`test/support/loopback-only: DNS lookup of ${hostname} refused (tests stay on loopback)\n`);
  }
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname, syscall: 'getaddrinfo' });
}

const lookup = dns.lookup;
dns.lookup = function loopbackLookup(hostname, ...rest) {
  const callback = rest[rest.length - 1];
  if (!LOCAL_NAMES.has(hostname.toLowerCase()) && !isIpLiteral(hostname)) {
    process.nextTick(() => callback(refusal(hostname)));
    return {};
  }
  return lookup.call(dns, hostname, ...rest);
};

const promisesLookup = dns.promises.lookup;
dns.promises.lookup = function loopbackPromisesLookup(hostname, ...rest) {
  if (!LOCAL_NAMES.has(hostname.toLowerCase()) && !isIpLiteral(hostname)) return Promise.reject(refusal(hostname));
  return promisesLookup.call(dns.promises, hostname, ...rest);
};

syncBuiltinESMExports();

function isIpLiteral(hostname) {
  return /^[\d.]+$/.test(hostname) || hostname.includes(':');
}
