// The `postgres` project's global setup: one PostgreSQL cluster for the whole test run,
// started before its first file and stopped after its last. Each file's startPostgres()
// gets this cluster (test/support/postgres-cluster.ts) and makes its own databases in it.
// When the cluster cannot start, the files get the reason, and skip with today's notice
// (or fail, under LINKLADDER_REQUIRE_POSTGRES).

import type { TestProject } from 'vitest/node';
import { SHARED_POSTGRES_KEY, SHARED_SETTINGS, tryStart, type SharedPostgres } from './postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    linkladderPostgres: SharedPostgres;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Why it cannot start goes to each file's startPostgres(), which skips or (LINKLADDER_REQUIRE_POSTGRES) throws, as alone.
  let cluster: Awaited<ReturnType<typeof tryStart>>;
  try {
    cluster = await tryStart({ settings: SHARED_SETTINGS });
  } catch (error) {
    cluster = `cannot start PostgreSQL: ${error instanceof Error ? error.message : String(error)}`;
  }
  const shared: SharedPostgres = typeof cluster === 'string' ? { unavailable: cluster } : { port: cluster.port, dir: cluster.dir };
  project.provide(SHARED_POSTGRES_KEY, shared);
  return async () => {
    if (typeof cluster !== 'string') await cluster.stop();
  };
}
