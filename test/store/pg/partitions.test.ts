// The hash-partitioned schema (pg-partitions.ts) on a throwaway PostgreSQL
// cluster: it is the schema the migrations make, but partitioned (the same columns,
// constraints, indexes and views, under the same names); a later migration applies to
// it as to an unpartitioned one; and the statements of a page (claim's hold, admission,
// the fetch's record, an alias, a requeue) each read only the partitions of the sites
// they name, as the plans the server ran them with show (auto_explain, with the
// actual loops of each partition's scan).

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, PgStore, type AdmitEntry } from '../../../src/store/index.js';
import { connect, defaultPgMigrationsDir, migratePg } from '../../../src/store/pg/pg-database.js';
import { migratePgIndex, partitionCount, partitionLayout, partitionPg, PARTITIONED_TABLES } from '../../../src/store/pg/pg-partitions.js';
import { partitionOfSite } from '../../../src/store/pg/hash-partition.js';
import { siteOf } from '../../../src/store/pg/site-hash.js';
import { startPostgres, type PostgresCluster } from '../../support/postgres-cluster.js';
import { INSTALL_TIMEOUT_MS, skipNotice } from '../../support/system-tools.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-pg-partitions-'));
let cluster: PostgresCluster | string;
beforeAll(async () => {
  cluster = await startPostgres();
}, INSTALL_TIMEOUT_MS + 60_000);
afterAll(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The schema as the catalog has it: columns, constraints, indexes (partitions' own left out) and views. */
async function schemaOf(url: string): Promise<string[]> {
  const sql = connect(url, { max: 1 });
  try {
    const rows = await sql`
      SELECT 'column ' || c.table_name || '.' || c.column_name || ' ' || c.data_type || ' ' || coalesce(c.collation_name, '') || ' ' ||
             c.is_nullable || ' ' || coalesce(c.column_default, '') AS line
      FROM information_schema.columns AS c JOIN pg_class AS t ON t.relname = c.table_name AND NOT t.relispartition
      WHERE c.table_schema = current_schema()
      UNION ALL
      SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
      WHERE connamespace = current_schema()::regnamespace AND NOT EXISTS (SELECT 1 FROM pg_class AS t WHERE t.oid = conrelid AND t.relispartition)
      UNION ALL
      SELECT 'index ' || indexname || ' ' || replace(indexdef, 'ON ONLY ', 'ON ') FROM pg_indexes AS i
      WHERE schemaname = current_schema() AND NOT EXISTS (SELECT 1 FROM pg_class AS t WHERE t.relname = i.tablename AND t.relispartition)
      UNION ALL
      SELECT 'view ' || viewname || ' ' || definition FROM pg_views WHERE schemaname = current_schema()
      UNION ALL
      SELECT 'trigger ' || pg_get_triggerdef(g.oid) FROM pg_trigger AS g JOIN pg_class AS t ON t.oid = g.tgrelid
      WHERE NOT g.tgisinternal AND g.tgparentid = 0 AND t.relnamespace = current_schema()::regnamespace
      UNION ALL
      SELECT 'sequence ' || s.relname || ' owned by ' || coalesce(d.refobjid::regclass::text, '-') FROM pg_class AS s
      LEFT JOIN pg_depend AS d ON d.objid = s.oid AND d.deptype = 'a' AND d.classid = 'pg_class'::regclass
      WHERE s.relkind = 'S' AND s.relnamespace = current_schema()::regnamespace`;
    return rows.map((r) => r.line as string).sort();
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** A folder of every migration but the last, as an index made before the last one has them. */
function migrationsWithoutLast(name: string): string {
  const folder = path.join(dir, name);
  mkdirSync(folder);
  for (const m of loadMigrations(defaultPgMigrationsDir()).slice(0, -1)) copyFileSync(path.join(defaultPgMigrationsDir(), m.file), path.join(folder, m.file));
  return folder;
}

describe('the partitioned schema', () => {
  it('is the schema the migrations make (names, columns, constraints, indexes, views, triggers, sequences), its large tables partitioned', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the partitioned schema', cluster));
    const plain = await cluster.createDatabase();
    const partitioned = await cluster.createDatabase();
    for (const url of [plain, partitioned]) {
      const sql = connect(url, { max: 1 });
      if (url === partitioned) await partitionPg(sql, 3, { now: Date.now, url });
      else await migratePg(sql, Date.now);
      expect(await partitionCount(sql)).toBe(url === partitioned ? 3 : 0);
      await sql.end({ timeout: 1 });
    }
    const expected = await schemaOf(plain);
    expect(expected.some((line) => line.startsWith('view broken_link'))).toBe(true);
    expect(expected.some((line) => line.startsWith('trigger CREATE TRIGGER frontier_insert AFTER INSERT ON public.url'))).toBe(true);
    expect(await schemaOf(partitioned)).toEqual(expected);
  });

  it('takes a later migration as an unpartitioned index does (the last one applied after partitioning)', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the partitioned schema', cluster));
    const all = loadMigrations(defaultPgMigrationsDir());
    const older = migrationsWithoutLast('older');
    const url = await cluster.createDatabase();
    const sql = connect(url, { max: 1 });
    try {
      const first = await partitionPg(sql, 4, { now: Date.now, url, dir: older });
      expect(first).toMatchObject({ isPartitioned: true });
      expect(first.applied.map((m) => m.file)).toEqual(all.slice(0, -1).map((m) => m.file));
      const later = await migratePg(sql, Date.now);
      expect(later.map((m) => m.file)).toEqual([all.at(-1)!.file]);
      expect(await partitionCount(sql)).toBe(4);
      const plain = await cluster.createDatabase();
      const plainSql = connect(plain, { max: 1 });
      await migratePg(plainSql, Date.now);
      await plainSql.end({ timeout: 1 });
      expect(await schemaOf(url)).toEqual(await schemaOf(plain));
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  it('makes the functions of a migration applied after partitioning again with a branch a partition, each finding the rows of its site', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the partitioned schema', cluster));
    const all = loadMigrations(defaultPgMigrationsDir());
    const withoutLast = migrationsWithoutLast('without-last');
    const url = await cluster.createDatabase();
    const sql = connect(url, { max: 1 });
    try {
      await partitionPg(sql, 4, { now: Date.now, url, dir: withoutLast });
      // As a worker or `db migrate` migrates: the last migration's functions are made by partition.
      expect((await migratePgIndex(sql, Date.now)).map((m) => m.file)).toEqual([all.at(-1)!.file]);
      const functions = await sql`SELECT proname AS name, prosrc AS source FROM pg_proc
        WHERE proname IN ('url_keys_taken', 'form_texts_taken', 'urls_became_alias', 'page_link_end', 'url_held', 'claim_url', 'last_fetch_start') ORDER BY 1`;
      expect(functions).toHaveLength(7);
      for (const f of functions) {
        const names = (f.source as string).match(/"(url|form|page_link|fetch)_p\d+"/g) ?? [];
        expect(new Set(names).size, f.name as string).toBe(4);
      }
      expect(await migratePgIndex(sql, Date.now)).toEqual([]);
      // Each site's branch reads the partition PostgreSQL routes the site's rows to.
      const sites = Array.from({ length: 24 }, (_, i) => siteOf(`h${i}.example`));
      await sql`INSERT INTO url (site, id, key, scheme, host, state, role, depth, first_seen)
        SELECT s, row_number() OVER (), 'http://h' || s || '/', 'http', 'h', 'done', 'page', 0, 0 FROM unnest(${sites}::integer[]) AS s`;
      const [found] = await sql`SELECT count(*) FILTER (WHERE url_keys_taken(s, ARRAY['http://h' || s || '/'])) AS own,
        count(*) FILTER (WHERE url_keys_taken(s # 1, ARRAY['http://h' || s || '/'])) AS other FROM unnest(${sites}::integer[]) AS s`;
      expect(found).toEqual({ own: 24, other: 0 });
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});

describe('the frontier copy (migration 012)', () => {
  it('is filled from the queued and claimed URLs of an index made before it, partitioned or not, and kept from then on', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the frontier copy', cluster));
    const upTo011 = path.join(dir, 'up-to-011');
    mkdirSync(upTo011, { recursive: true });
    for (const m of loadMigrations(defaultPgMigrationsDir()).filter((m) => m.version <= 11)) copyFileSync(path.join(defaultPgMigrationsDir(), m.file), path.join(upTo011, m.file));
    for (const partitions of [0, 4]) {
      const url = await cluster.createDatabase();
      const sql = connect(url, { max: 1 });
      try {
        if (partitions > 0) await partitionPg(sql, partitions, { now: Date.now, url, dir: upTo011 });
        else await migratePg(sql, Date.now, upTo011);
        await sql`
          INSERT INTO url (site, id, key, scheme, host, state, depth, first_seen, claimed_by, lease_until)
          VALUES (1, 1, 'http://a.test/', 'http', 'a.test', 'queued', 0, 0, NULL, NULL),
                 (2, 2, 'http://b.test/', 'http', 'b.test', 'fetching', 1, 0, 'w', 99),
                 (3, 3, 'http://c.test/', 'http', 'c.test', 'done', 1, 0, NULL, NULL)`;
        expect((await migratePg(sql, Date.now)).map((m) => m.version)).toContain(12);
        const copy = async () => (await sql`SELECT id, host, depth, state, claimed_by, lease_until FROM frontier ORDER BY id`).map((r) => ({ ...r }));
        expect(await copy(), `${partitions} partitions`).toEqual([
          { id: 1, host: 'a.test', depth: 0, state: 'queued', claimed_by: null, lease_until: null },
          { id: 2, host: 'b.test', depth: 1, state: 'fetching', claimed_by: 'w', lease_until: 99 },
        ]);
        await sql`UPDATE url SET state = 'fetching', claimed_by = 'v', lease_until = 5 WHERE site = 1 AND id = 1`;
        await sql`UPDATE url SET state = 'done', claimed_by = NULL, lease_until = NULL WHERE site = 2 AND id = 2`;
        await sql`UPDATE url SET state = 'queued' WHERE site = 3 AND id = 3`;
        expect(await copy(), `${partitions} partitions`).toEqual([
          { id: 1, host: 'a.test', depth: 0, state: 'fetching', claimed_by: 'v', lease_until: 5 },
          { id: 3, host: 'c.test', depth: 1, state: 'queued', claimed_by: null, lease_until: null },
        ]);
        await sql`DELETE FROM url WHERE site = 1 AND id = 1`;
        expect((await copy()).map((r) => r.id)).toEqual([3]);
        await sql`TRUNCATE url`;
        expect(await copy()).toEqual([]);
      } finally {
        await sql.end({ timeout: 1 });
      }
    }
  });

  it('migration 015 gives each host of an index made before it its first queued URL and its site, and names a URL without a host by an empty host in the frontier', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the hosts of an earlier index', cluster));
    const upTo014 = path.join(dir, 'up-to-014');
    mkdirSync(upTo014, { recursive: true });
    for (const m of loadMigrations(defaultPgMigrationsDir()).filter((m) => m.version <= 14)) copyFileSync(path.join(defaultPgMigrationsDir(), m.file), path.join(upTo014, m.file));
    const url = await cluster.createDatabase();
    const sql = connect(url, { max: 1 });
    try {
      await migratePg(sql, Date.now, upTo014);
      await sql`
        INSERT INTO url (site, id, key, scheme, host, state, depth, first_seen, claimed_by, lease_until)
        VALUES (7, 1, 'http://a.test/1', 'http', 'a.test', 'queued', 1, 0, NULL, NULL),
               (7, 5, 'http://a.test/5', 'http', 'a.test', 'queued', 0, 0, NULL, NULL),
               (7, 6, 'http://a.test/6', 'http', 'a.test', 'queued', 0, 0, NULL, NULL),
               (8, 2, 'http://b.test/', 'http', 'b.test', 'fetching', 1, 0, 'w', 99),
               (9, 3, 'mailto:x@c.test', 'mailto', NULL, 'queued', 2, 0, NULL, NULL)`;
      await sql`INSERT INTO crawl_host (host, next_at, delay_ms) VALUES ('b.test', 5, 100)`;
      expect((await migratePg(sql, Date.now)).map((m) => m.version)).toContain(15);
      const hosts = await sql`SELECT host, queued_depth, queued_id, site, next_at, delay_ms FROM crawl_host ORDER BY host`;
      expect(hosts.map((r) => ({ ...r }))).toEqual([
        { host: '', queued_depth: 2, queued_id: 3, site: 9, next_at: 0, delay_ms: 0 },
        { host: 'a.test', queued_depth: 0, queued_id: 5, site: 7, next_at: 0, delay_ms: 0 },
        { host: 'b.test', queued_depth: null, queued_id: null, site: 8, next_at: 5, delay_ms: 100 },
      ]);
      expect((await sql`SELECT host FROM frontier WHERE id = 3`)[0]!.host).toBe('');
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});

// ---------------------------------------------------------------------------------------
// Plans, as the server ran them.

interface PlanNode {
  readonly 'Relation Name'?: string;
  readonly 'Actual Loops'?: number;
  readonly Plans?: readonly PlanNode[];
}

interface LoggedPlan {
  readonly 'Query Text': string;
  readonly Plan: PlanNode;
}

const PARTITION = new RegExp(`^(${PARTITIONED_TABLES.join('|')})_p\\d+$`);

/** Each partitioned table the plan read, with the partitions it read (scans that ran at least once). */
function partitionsRead(plan: PlanNode, into = new Map<string, Set<string>>()): Map<string, Set<string>> {
  const name = plan['Relation Name'];
  const match = name === undefined ? null : PARTITION.exec(name);
  if (match !== null && (plan['Actual Loops'] ?? 0) > 0) {
    const set = into.get(match[1]!) ?? new Set<string>();
    set.add(name!);
    into.set(match[1]!, set);
  }
  for (const child of plan.Plans ?? []) partitionsRead(child, into);
  return into;
}

/**
 * Each partitioned table the plan set up a scan of, with those partitions, whether the
 * scan ran or not: the partitions pruned as the execution started are not in the plan.
 */
function partitionsSetUp(plan: PlanNode, into = new Map<string, Set<string>>()): Map<string, Set<string>> {
  const name = plan['Relation Name'];
  const match = name === undefined ? null : PARTITION.exec(name);
  if (match !== null) into.set(match[1]!, (into.get(match[1]!) ?? new Set<string>()).add(name!));
  for (const child of plan.Plans ?? []) partitionsSetUp(child, into);
  return into;
}

/** auto_explain's JSON plans in the server log (each line of a message after its first starts with a tab). */
function loggedPlans(log: string): LoggedPlan[] {
  const plans: LoggedPlan[] = [];
  const lines = log.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/ LOG: {2}duration: [\d.]+ ms {2}plan:$/.test(lines[i]!)) continue;
    const body: string[] = [];
    while (i + 1 < lines.length && lines[i + 1]!.startsWith('\t')) body.push(lines[++i]!.slice(1));
    plans.push(JSON.parse(body.join('\n')) as LoggedPlan);
  }
  return plans;
}

const PARTITIONS = 16;
const HOSTS = ['a.example', 'b.example'];

/** The plans logged since `logStart` that `pick` keeps, once `isEnough` says so (the log is written as statements end; 5 s at most). */
async function plansLogged(logFile: string, logStart: number, pick: (plans: LoggedPlan[]) => LoggedPlan[], isEnough: (plans: LoggedPlan[]) => boolean): Promise<LoggedPlan[]> {
  let plans: LoggedPlan[] = [];
  for (let wait = 0; wait < 50; wait++) {
    plans = pick(loggedPlans(readFileSync(logFile, 'utf8').slice(logStart)));
    if (isEnough(plans)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return plans;
}

/** The plan set up one partition of `table`: the one PostgreSQL routes the site of one of `hosts` to. */
function expectOnePartitionOf(plan: LoggedPlan, table: string, hosts: readonly string[]): void {
  const setUp = partitionsSetUp(plan.Plan).get(table) ?? new Set<string>();
  expect(setUp.size).toBe(1);
  const own = new Set(hosts.map((host) => `${table}_p${partitionOfSite(siteOf(host), PARTITIONS)}`));
  for (const name of setUp) expect(own).toContain(name);
}

/** A partitioned index whose every statement's plan the server logs as it ran (auto_explain), and where its log starts. */
async function explainedIndex(cluster: PostgresCluster): Promise<{ url: string; logFile: string; logStart: number }> {
  const url = await cluster.createDatabase();
  const name = new URL(url).pathname.slice(1);
  const sql = connect(url, { max: 1 });
  await partitionPg(sql, PARTITIONS, { now: Date.now, url });
  await sql.end({ timeout: 1 });
  for (const setting of [
    `session_preload_libraries = 'auto_explain'`,
    'auto_explain.log_min_duration = 0',
    'auto_explain.log_analyze = on',
    'auto_explain.log_timing = off',
    `auto_explain.log_format = 'json'`,
    'auto_explain.log_nested_statements = on',
  ]) {
    await cluster.psql(`ALTER DATABASE "${name}" SET ${setting}`);
  }
  const logFile = path.join(cluster.dir, 'server.log');
  return { url, logFile, logStart: readFileSync(logFile, 'utf8').length };
}

describe('the statements of a page on a partitioned index', () => {
  it('each read the partitions of the sites they name, not every partition', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('partition pruning', cluster));
    const { url, logFile, logStart } = await explainedIndex(cluster);

    // A worker admits on what it remembers (its write checks that); a second one, which
    // remembers nothing, reads a snapshot first.
    const first = await PgStore.open({ url, workerId: 'pruning-1' });
    const second = await PgStore.open({ url, workerId: 'pruning-2' });
    for (const store of [first, second]) store.shared.setPoliteness({ perHostConcurrency: 4, perHostDelayMs: 0 });
    await first.admit(HOSTS.map((host) => ({ rawHref: `http://${host}/`, target: `http://${host}/` })));
    let pages = 0;
    for (let round = 0; round < 3; round++) {
      const store = round < 2 ? first : second;
      const claimed = await store.claim(8);
      for (const page of claimed) {
        pages++;
        await store.transact(async (tx) => {
          expect(await tx.holdClaim?.(page.id)).toBe(true);
          const links: AdmitEntry[] = HOSTS.flatMap((host, h) =>
            [0, 1, 2].map((n) => ({
              fromUrlId: page.id,
              rawHref: `http://${host}/p${round + 1}-${n}`,
              target: `http://${host}/p${round + 1}-${n}`,
              element: 'a',
              attribute: 'href',
              baseLevel: 'retrieval' as const,
              depth: page.depth + 1,
              ...(h === 1 && n === 0 ? { role: 'resource' as const } : {}),
            })),
          );
          const admitted = await tx.admit(links);
          if (page.key.endsWith('/p1-1')) {
            // A redirect: the page becomes an alias of a URL of the other host.
            await tx.recordFetch({ urlId: page.id, outcome: 'done', startedAt: 1, status: 301, redirects: [{ from: page.key, to: 'http://b.example/p1-0', status: 301 }] });
            await tx.addAlias({ fromId: page.id, toId: admitted[3]!.urlId!, evidence: 'redirect', detail: '301' });
          } else if (page.key.endsWith('/p1-2')) {
            await tx.requeue(page.id);
          } else {
            await tx.recordFetch({ urlId: page.id, outcome: 'done', startedAt: 1, status: 200, contentType: 'text/html' });
          }
        });
      }
    }
    await first.close();
    await second.close();
    expect(pages).toBeGreaterThan(6);

    const plans = await plansLogged(logFile, logStart, (p) => p, (found) => found.some((p) => p['Query Text'].includes("SET state = 'alias'")));
    const read = (signature: string) => {
      const matching = plans.filter((p) => p['Query Text'].includes(signature));
      expect(matching.length, signature).toBeGreaterThan(0);
      return matching.map((p) => partitionsRead(p.Plan));
    };
    const most = (reads: Map<string, Set<string>>[], table: string) => Math.max(0, ...reads.map((r) => r.get(table)?.size ?? 0));
    // A statement of one URL reads one partition of each table.
    for (const signature of ['INSERT INTO "fetch_p', "THEN 'queued' ELSE state END", 'INSERT INTO alias', "SET state = 'alias'"]) {
      const reads = read(signature);
      for (const table of PARTITIONED_TABLES) expect(most(reads, table), `${signature}: ${table}`).toBeLessThanOrEqual(1);
    }
    // The fetch row names its site's partitions itself (no lock on the others): the ones PostgreSQL routes the site to.
    const partitionsOf = (table: string) => new Set(HOSTS.map((host) => `"${table}_p${partitionOfSite(siteOf(host), PARTITIONS)}"`));
    for (const [signature, table] of [['INSERT INTO "fetch_p', 'fetch'], ['INSERT INTO "fetch_p', 'url']] as const) {
      for (const plan of plans.filter((p) => p['Query Text'].includes(signature))) {
        const named = plan['Query Text'].match(new RegExp(`"${table}_p\\d+"`, 'g')) ?? [];
        expect(named.length, signature).toBeGreaterThan(0);
        for (const name of named) expect(partitionsOf(table), signature).toContain(name);
      }
    }
    // What the admission reads by one site, and the claim held riding in it, go through
    // functions whose statements name the site's partition (migration 016, as
    // `db migrate --partitions` makes them): each sets up that one partition.
    const byFunction = { 'u.key = x.key': 'url', 'fo.text = x.text': 'form', 'p.from_url = p_from': 'page_link', 'u.lease_until >= p_now': 'url' } as const;
    for (const [signature, table] of Object.entries(byFunction)) {
      const matching = plans.filter((p) => p['Query Text'].includes(signature));
      expect(matching.length, signature).toBeGreaterThan(0);
      for (const plan of matching) {
        expect(plan['Query Text'], signature).toMatch(new RegExp(`FROM "${table}_p\\d+" AS`));
        expect([...partitionsSetUp(plan.Plan).keys()], signature).toEqual([table]);
        expectOnePartitionOf(plan, table, HOSTS);
      }
    }
    // The alias's two URLs: two sites.
    expect(most(read('FROM url WHERE (site ='), 'url')).toBeLessThanOrEqual(2);
    // Admission: the sites of the batch's texts and pages (two hosts), however many partitions.
    for (const signature of ['WITH RECURSIVE t AS', 'wrong AS', 'INSERT INTO page_link']) {
      const reads = read(signature);
      for (const table of ['url', 'form']) expect(most(reads, table), `${signature}: ${table}`).toBeLessThanOrEqual(HOSTS.length);
      expect(most(reads, 'page_link'), `${signature}: page_link`).toBeLessThanOrEqual(1);
    }
    // The batch's write names its sites: the partitions of the others are not even set up
    // (a scan of each, at every execution, was most of a page's cost at 64 partitions).
    for (const signature of ['wrong AS', 'INSERT INTO page_link']) {
      const setUp = plans.filter((p) => p['Query Text'].includes(signature) && !p['Query Text'].includes('open_host AS')).map((p) => partitionsSetUp(p.Plan));
      expect(setUp.length, signature).toBeGreaterThan(0);
      for (const table of PARTITIONED_TABLES) expect(most(setUp, table), `${signature}: ${table} set up`).toBeLessThanOrEqual(HOSTS.length);
    }
  }, 120_000);

  it("reads the layout: partitions named as partitionPg names them, by remainder; an unpartitioned index has none", async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('partition pruning', cluster));
    const { url } = await explainedIndex(cluster);
    const sql = connect(url, { max: 1 });
    try {
      expect(await partitionLayout(sql)).toEqual({ count: PARTITIONS, isNamed: true });
      // A partition renamed: statements name the partitioned tables again.
      await sql`ALTER TABLE fetch_p3 RENAME TO fetch_old`;
      expect(await partitionLayout(sql)).toEqual({ count: PARTITIONS, isNamed: false });
    } finally {
      await sql.end({ timeout: 1 });
    }
    const plain = connect(await cluster.createDatabase(), { max: 1 });
    try {
      await migratePg(plain, Date.now);
      expect(await partitionLayout(plain)).toEqual({ count: 0, isNamed: false });
    } finally {
      await plain.end({ timeout: 1 });
    }
  });

  it('a claim sets up no partition: it reads the frontier from its own table, and takes each URL by (site, id) in a function', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('partition pruning', cluster));
    const { url, logFile, logStart } = await explainedIndex(cluster);
    // Eight hosts queued (in as many partitions as their sites fall in), each claim takes one URL of two of them.
    const hosts = Array.from({ length: 8 }, (_, i) => `h${i}.example`);
    const store = await PgStore.open({ url, workerId: 'claiming' });
    store.shared.setPoliteness({ perHostConcurrency: 1, perHostDelayMs: 0 });
    await store.admit(hosts.flatMap((host) => [0, 1, 2].map((n) => ({ rawHref: `http://${host}/${n}`, target: `http://${host}/${n}` }))));
    const claims: number[] = [];
    for (let round = 0; round < 3; round++) {
      const claimed = await store.claim(2);
      claims.push(new Set(claimed.map((c) => c.host)).size);
      for (const page of claimed) {
        await store.transact(async (tx) => {
          expect(await tx.holdClaim?.(page.id)).toBe(true);
          await tx.recordFetch({ urlId: page.id, outcome: 'done', startedAt: 1, status: 200, contentType: 'text/html' });
        });
      }
    }
    await store.close();
    expect(claims).toEqual([2, 2, 2]);
    const plans = await plansLogged(logFile, logStart, (p) => p.filter((plan) => plan['Query Text'].includes('open_host AS')), (found) => found.length >= 3);
    expect(plans.length).toBeGreaterThanOrEqual(3);
    // The claim's own plan names no partitioned table (claim_url's statements, by one site, are not in it).
    for (const plan of plans) expect(Object.fromEntries(partitionsSetUp(plan.Plan))).toEqual({});
    // claim_url, as db migrate --partitions makes it, takes each URL in its site's partition, named.
    const all = loggedPlans(readFileSync(logFile, 'utf8').slice(logStart));
    const marks = all.filter((p) => p['Query Text'].includes("SET state = 'fetching'") && !p['Query Text'].includes('open_host AS'));
    // The 6 URLs claimed, and any a unit's commit claimed ahead.
    expect(marks.length).toBeGreaterThanOrEqual(6);
    for (const mark of marks) {
      expect(mark['Query Text']).toMatch(/UPDATE "url_p\d+" AS u/);
      expectOnePartitionOf(mark, 'url', hosts);
    }
  }, 120_000);

  it("a claim reads a host's last request start (for its delay) in its site's partition of fetch, named", async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('partition pruning', cluster));
    const { url, logFile, logStart } = await explainedIndex(cluster);
    const hosts = Array.from({ length: 4 }, (_, i) => `d${i}.example`);
    const store = await PgStore.open({ url, workerId: 'polite' });
    store.shared.setPoliteness({ perHostConcurrency: 1, perHostDelayMs: 1 });
    await store.admit(hosts.flatMap((host) => [0, 1].map((n) => ({ rawHref: `http://${host}/${n}`, target: `http://${host}/${n}` }))));
    let claimed = 0;
    for (let round = 0; round < 20 && claimed < hosts.length * 2; round++) {
      for (const page of await store.claim(hosts.length)) {
        claimed++;
        await store.transact(async (tx) => {
          expect(await tx.holdClaim?.(page.id)).toBe(true);
          await tx.recordFetch({ urlId: page.id, outcome: 'done', startedAt: Date.now(), status: 200, contentType: 'text/html' });
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await store.close();
    expect(claimed).toBe(hosts.length * 2);
    const reads = await plansLogged(
      logFile,
      logStart,
      (p) => p.filter((plan) => /coalesce\(f\.started_db, f\.started_at\)/.test(plan['Query Text']) && !plan['Query Text'].includes('open_host AS')),
      (found) => found.length >= hosts.length,
    );
    // Each host's second URL waited on its first request's start.
    expect(reads.length).toBeGreaterThanOrEqual(hosts.length);
    for (const read of reads) {
      expect(read['Query Text']).toMatch(/FROM "fetch_p\d+" AS f/);
      expectOnePartitionOf(read, 'fetch', hosts);
    }
  }, 120_000);
});
