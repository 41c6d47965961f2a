// A PostgreSQL index emptied between the tests of one file, so that each starts as
// a fresh index would (ids from 1) without a new database each time.

import type { Sql } from '../../../src/store/pg/pg-database.js';

/** Remove every row but the migrations', and restart every sequence. */
export async function emptyIndex(sql: Sql): Promise<void> {
  const tables = await sql`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'`;
  const sequences = await sql`SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()`;
  await sql.unsafe(`TRUNCATE ${tables.map((t) => `"${t.tablename as string}"`).join(', ')}`);
  for (const s of sequences) await sql.unsafe(`ALTER SEQUENCE "${s.sequencename as string}" RESTART`);
}
