#!/usr/bin/env node
// Reads a WARC series back with warcio (Webrecorder's reader, independent of whoever
// wrote it: linkladder, wget, …) and checks it:
//   - every file parses to its last byte (nothing torn, nothing trailing);
//   - records by type, bytes, revisits by profile;
//   - every response's WARC-Block-Digest and WARC-Payload-Digest recomputed from the bytes
//     read (sha1 or sha256, base32 or hex, as the header names them); every revisit's
//     payload digest is that of a response in the series (the capture it stands for);
//   - request records grouped by (method, request-target as sent): with --log, compared
//     with an nginx access log (bench/support/serve-tree.sh's format: `$status $request_uri
//     $connection $request_method $server_protocol`): every request the server logged must
//     be in the archive exactly once, and every request record must be in the log.
//
//   node bench/support/warc-verify.mjs [--log access.log] [--json] FILE.warc.gz...
//
// Prints a summary and each difference; exits 1 when a digest is wrong, a file does not
// parse to its end, or (with --log) the archive and the log differ.

import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { WARCParser } from 'warcio';

const args = process.argv.slice(2);
let logFile;
let isJson = false;
const files = [];
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--log') logFile = args[++i];
  else if (args[i] === '--json') isJson = true;
  else files.push(args[i]);
}
if (files.length === 0) {
  console.error('usage: warc-verify.mjs [--log access.log] [--json] FILE.warc.gz...');
  process.exit(2);
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
function base32(bytes) {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Whether `header` (`sha1:…`, `sha256:…`, base32 or hex, padded or not) is the digest of `bytes`. */
function digestMatches(header, bytes) {
  const colon = header.indexOf(':');
  const algo = header.slice(0, colon).toLowerCase().replace('-', '');
  const value = header.slice(colon + 1).replace(/=+$/, '');
  if (algo !== 'sha1' && algo !== 'sha256') return undefined;
  const digest = createHash(algo).update(bytes).digest();
  return value.toUpperCase() === base32(digest) || value.toLowerCase() === digest.toString('hex');
}

function normalDigest(header) {
  return header === undefined || header === null ? undefined : header.replace(/=+$/, '').toUpperCase();
}

/** RFC 9112 §7.1: the chunked coding removed, or undefined when the bytes are not chunked. */
function dechunk(bytes) {
  const parts = [];
  let position = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', position, 'latin1');
    if (lineEnd < 0) return undefined;
    const size = parseInt(bytes.subarray(position, lineEnd).toString('latin1').split(';')[0].trim(), 16);
    if (!Number.isInteger(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    position = lineEnd + 2 + size + 2;
    if (position > bytes.length) return undefined;
  }
}

const types = {};
const revisitProfiles = {};
const problems = [];
const requests = new Map(); // "METHOD target" -> count
const payloadDigests = new Set();
const revisits = [];
let bytes = 0;
let records = 0;
let responsesChecked = 0;

for (const file of files) {
  const size = statSync(file).size;
  bytes += size;
  // warcio counts a record of an uncompressed file without the CRLF CRLF that closes it.
  const head = Buffer.alloc(2);
  const fd = openSync(file, 'r');
  readSync(fd, head, 0, 2, 0);
  closeSync(fd);
  const trailer = head[0] === 0x1f && head[1] === 0x8b ? 0 : 4;
  const parser = new WARCParser(createReadStream(file), { parseHttp: false });
  let end = 0;
  for await (const record of parser) {
    const block = Buffer.from(await record.readFully(false));
    end = parser.offset + parser.recordLength + trailer;
    records += 1;
    const type = record.warcType;
    types[type] = (types[type] ?? 0) + 1;
    const where = `${basename(file)}@${parser.offset} ${type} ${record.warcTargetURI ?? ''}`;
    if (block.length !== record.warcContentLength) problems.push(`${where}: block is ${block.length} bytes, Content-Length says ${record.warcContentLength} (torn?)`);
    const blockDigest = record.warcBlockDigest;
    if (blockDigest && digestMatches(blockDigest, block) === false) problems.push(`${where}: WARC-Block-Digest ${blockDigest} does not match the block`);
    const isHttp = (record.warcContentType ?? '').startsWith('application/http');
    const headEnd = isHttp ? block.indexOf('\r\n\r\n', 0, 'latin1') : -1;
    if (type === 'request' && isHttp) {
      const [method, target] = block.subarray(0, block.indexOf('\r\n', 0, 'latin1')).toString('latin1').split(' ');
      const key = `${method} ${target}`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
    } else if (type === 'response' && isHttp && headEnd >= 0) {
      const payload = block.subarray(headEnd + 4);
      const header = record.warcPayloadDigest;
      if (header) {
        responsesChecked += 1;
        let ok = digestMatches(header, payload);
        // wget keeps a chunked body as received and digests it de-chunked.
        if (ok === false && /\r\ntransfer-encoding:[^\r]*chunked/i.test(block.subarray(0, headEnd + 2).toString('latin1'))) {
          const plain = dechunk(payload);
          if (plain !== undefined) ok = digestMatches(header, plain);
        }
        if (ok === false) problems.push(`${where}: WARC-Payload-Digest ${header} does not match the payload`);
        payloadDigests.add(normalDigest(header));
      }
    } else if (type === 'revisit') {
      const profile = record.warcHeader('WARC-Profile') ?? '';
      revisitProfiles[profile] = (revisitProfiles[profile] ?? 0) + 1;
      if (/identical-payload-digest/.test(profile)) revisits.push({ where, digest: normalDigest(record.warcPayloadDigest) });
    }
  }
  if (end !== size) problems.push(`${basename(file)}: the records end at byte ${end}, the file at ${size} (torn or trailing bytes)`);
}
// A revisit stands for an earlier capture of the same payload: it must be in the series.
for (const revisit of revisits) {
  if (revisit.digest === undefined || !payloadDigests.has(revisit.digest)) problems.push(`${revisit.where}: revisit of payload ${revisit.digest} that no response in the series holds`);
}

const duplicates = [...requests].filter(([, count]) => count > 1).map(([key, count]) => `${key} ×${count}`);
const log = { lines: 0, missing: [], repeated: [], notLogged: [] };
if (logFile !== undefined) {
  const logged = new Map();
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (line === '') continue;
    const [, uri, , method] = line.split(' ');
    log.lines += 1;
    const key = `${method} ${uri}`;
    logged.set(key, (logged.get(key) ?? 0) + 1);
  }
  for (const [key, count] of logged) {
    const archived = requests.get(key) ?? 0;
    if (archived === 0) log.missing.push(count > 1 ? `${key} (logged ×${count})` : key);
    else if (archived !== count) log.repeated.push(`${key}: logged ×${count}, archived ×${archived}`);
  }
  for (const [key, count] of requests) if (!logged.has(key)) log.notLogged.push(count > 1 ? `${key} ×${count}` : key);
}

const requestRecords = [...requests.values()].reduce((sum, count) => sum + count, 0);
const summary = {
  files: files.length,
  bytes,
  records,
  types,
  revisitProfiles,
  responsesDigestChecked: responsesChecked,
  requestRecords,
  distinctRequests: requests.size,
  duplicateRequests: duplicates,
  ...(logFile !== undefined ? { log } : {}),
  problems,
};
const isOk = problems.length === 0 && (logFile === undefined || (log.missing.length === 0 && log.repeated.length === 0 && log.notLogged.length === 0));
if (isJson) console.log(JSON.stringify({ ...summary, ok: isOk }));
else {
  const byType = Object.entries(types).map(([type, count]) => `${type} ${count}`).join(', ');
  console.log(`${files.length} file(s), ${bytes} bytes, ${records} records (${byType})`);
  for (const [profile, count] of Object.entries(revisitProfiles)) console.log(`  revisits ${count}: ${profile}`);
  console.log(`  payload digests recomputed: ${responsesChecked} responses; revisits pointing into the series: ${revisits.length}`);
  console.log(`  request records: ${requestRecords} (${requests.size} distinct method + target)${duplicates.length > 0 ? `; repeated: ${duplicates.slice(0, 10).join(', ')}${duplicates.length > 10 ? ', …' : ''}` : ''}`);
  if (logFile !== undefined) {
    console.log(`  server log: ${log.lines} requests; logged but not archived ${log.missing.length}, logged and archived a different number of times ${log.repeated.length}, archived but not logged ${log.notLogged.length}`);
    for (const [label, list] of [['not archived', log.missing], ['count differs', log.repeated], ['not logged', log.notLogged]]) {
      for (const item of list.slice(0, 20)) console.log(`    ${label}: ${item}`);
      if (list.length > 20) console.log(`    ${label}: … ${list.length - 20} more`);
    }
  }
  for (const problem of problems.slice(0, 50)) console.log(`  PROBLEM ${problem}`);
  if (problems.length > 50) console.log(`  … ${problems.length - 50} more problems`);
  console.log(isOk ? 'ok' : 'NOT OK');
}
process.exit(isOk ? 0 : 1);
