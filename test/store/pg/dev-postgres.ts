// TEMPORARY: until test/support/postgres-cluster.ts is on main, a database server named
// by LINKLADDER_TEST_PG stands for startPostgres().

import postgres from 'postgres';

export interface PostgresCluster {
  readonly url: string;
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
}

let n = 0;
export async function startPostgres(): Promise<PostgresCluster | string> {
  const url = process.env['LINKLADDER_TEST_PG'];
  if (url === undefined) return 'LINKLADDER_TEST_PG is not set';
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const prefix = `t${process.pid}_${Date.now() % 100000}`;
  const made: string[] = [];
  return {
    url,
    async createDatabase(name?: string) {
      const database = name ?? `${prefix}_${++n}`;
      await admin.unsafe(`CREATE DATABASE "${database}"`);
      made.push(database);
      return url.replace(/\/[^/]*$/, `/${database}`);
    },
    async stop() {
      for (const database of made) await admin.unsafe(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

export function skipNotice(what: string, reason: string): string {
  const notice = `SKIPPED ${what}: ${reason}`;
  console.warn(`\n*** ${notice} ***\n`);
  return notice;
}
