// "0 false joins" of content evidence: every URL an index joined by content evidence (alias
// evidence `digest` or `rule`) must answer byte-identically to the URL it was joined
// to. Requests both URLs of each such alias (the server must still be running) and
// prints `joins N checked, F false` and the false ones; exits 1 when any is false.
//
//   node bench/support/check-content-joins.mjs <index.db>

import Database from 'better-sqlite3';

const [file] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: check-content-joins.mjs <index.db>');
  process.exit(2);
}
const db = new Database(file, { readonly: true });
const joins = db
  .prepare(
    `SELECT a.evidence, f.key AS from_key, t.key AS to_key FROM alias AS a
       JOIN url AS f ON f.id = a.from_id JOIN url AS t ON t.id = a.to_id
      WHERE a.evidence IN ('digest', 'rule') ORDER BY a.rowid`,
  )
  .all();
db.close();

const bodies = new Map();
async function body(url) {
  if (!bodies.has(url)) {
    const response = await fetch(url, { redirect: 'follow' });
    bodies.set(url, response.ok ? Buffer.from(await response.arrayBuffer()) : `status ${response.status}`);
  }
  return bodies.get(url);
}

const wrong = [];
for (let at = 0; at < joins.length; at += 16) {
  await Promise.all(
    joins.slice(at, at + 16).map(async (join) => {
      const [a, b] = await Promise.all([body(join.from_key), body(join.to_key)]);
      const isSame = Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b);
      if (!isSame) wrong.push(`${join.evidence}: ${join.from_key} → ${join.to_key}`);
    }),
  );
}
console.log(`joins ${joins.length} checked (digest and rule aliases, both URLs requested again), ${wrong.length} false`);
for (const line of wrong.slice(0, 10)) console.log(`  false join: ${line}`);
process.exit(wrong.length === 0 ? 0 : 1);
