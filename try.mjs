import { startDemoServer } from './dist/src/cli/demo/index.js';
import { runCli } from './dist/src/cli/index.js';
import { Readable, Writable } from 'node:stream';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
const sink = () => { const s = new Writable({ write(c, e, cb) { s.text += c; cb(); } }); s.text = ''; return s; };
const server = await startDemoServer();
const run = async (argv) => { const out = sink(), err = sink(); const code = await runCli(argv, { stdin: Readable.from([]), stdout: out, stderr: err, env: {}, onInterrupt: () => () => {} }); return { code, out: out.text, err: err.text }; };
const dir = mkdtempSync('/tmp/pgcmp-');
const dbs = { sqlite: `${dir}/i.db`, pg: 'postgres://postgres@127.0.0.1:38200/pgreader_2' };
for (const [name, db] of Object.entries(dbs)) {
  const c = await run(['crawl', `${server.origin}/`, '--db', db, '--allow-private', '--concurrency', '1']);
  writeFileSync(`${dir}/${name}.crawl`, c.out);
  for (const [what, argv] of Object.entries({ audit: ['audit', '--format', 'json'], graph: ['graph', '--format', 'json'], graphc: ['graph', '--format', 'ndjson', '--collapse-aliases'], stats: ['stats', '--json'], explain: ['explain', `${server.origin}/a`], explain2: ['explain', '--json', `${server.origin}/old`], dbstats: ['db', 'stats', '--json'] })) {
    const r = await run([...argv, '--db', db]);
    writeFileSync(`${dir}/${name}.${what}`, r.out + r.err + r.code);
  }
  const r = await run(['report', '--db', db, '--out', `${dir}/${name}.html`]);
  console.log(r);
}
console.log(dir);
await server.close();
