// What one statement costs a worker's CPU, whatever it does on the server: the
// PostgreSQL client's round trip of `SELECT $1` (connected as a worker's store connects:
// one connection, generic plans), against a bare round trip of 200 bytes between this
// process and another Node process on loopback (the least any client over TCP pays:
// a write, a wake-up, a read) and against better-sqlite3's `SELECT ?` in process (what
// the SQLite store pays a statement). CPU is this process's (user and system), so what
// the server or the echoing process spends is not in it. Rounds alternate, and medians
// are printed, as the machine may be shared. A throwaway PostgreSQL cluster is started
// on a loopback port (and removed); without PostgreSQL the bench says why and stops.
//
//   npx tsc -p tsconfig.json && node dist/bench/pg-client-roundtrip.bench.js
//   LINKLADDER_BENCH_TRIPS=2000 LINKLADDER_BENCH_ROUNDS=5 node dist/bench/pg-client-roundtrip.bench.js

import { spawn } from 'node:child_process';
import net from 'node:net';
import Database from 'better-sqlite3';
import { connect } from '../src/store/pg/pg-database.js';
import { startPostgres } from '../test/support/postgres-cluster.js';
import { medianOf, printEnvironment } from './support/measure.js';

const TRIPS = Number(process.env['LINKLADDER_BENCH_TRIPS'] ?? 3000);
const ROUNDS = Number(process.env['LINKLADDER_BENCH_ROUNDS'] ?? 5);

const ECHO_SERVER = `
const server = require('node:net').createServer((socket) => { socket.setNoDelay(true); socket.on('data', (data) => socket.write(data)); });
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
process.stdin.on('end', () => process.exit(0)).resume();
`;

/** This process's CPU (µs, user and system) a call of `once`, over `trips` calls. */
async function cpuPerTrip(trips: number, once: () => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < Math.min(200, trips); i++) await once();
  const start = process.cpuUsage();
  for (let i = 0; i < trips; i++) await once();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / trips;
}

async function main(): Promise<void> {
  printEnvironment();
  const cluster = await startPostgres();
  if (typeof cluster === 'string') {
    console.log(`SKIPPED: no PostgreSQL here (${cluster})`);
    return;
  }
  const echo = spawn(process.execPath, ['-e', ECHO_SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const sql = connect(await cluster.createDatabase(), { max: 1, isGenericPlans: true });
  const sqlite = new Database(':memory:');
  try {
    const port = await new Promise<number>((resolve, reject) => {
      echo.stdout.once('data', (data: Buffer) => resolve(Number(String(data).trim())));
      echo.once('error', reject);
    });
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    await new Promise((resolve) => socket.once('connect', resolve));
    const payload = Buffer.alloc(200, 1);
    const bare = (): Promise<void> =>
      new Promise((resolve) => {
        let received = 0;
        const onData = (data: Buffer): void => {
          received += data.length;
          if (received < payload.length) return;
          socket.off('data', onData);
          resolve();
        };
        socket.on('data', onData);
        socket.write(payload);
      });
    let n = 0;
    const select = sqlite.prepare('SELECT ? AS x');
    const results = { bare: [] as number[], postgres: [] as number[], sqlite: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      results.bare.push(await cpuPerTrip(TRIPS, bare));
      results.postgres.push(await cpuPerTrip(TRIPS, () => sql`SELECT ${n++}::integer AS x`));
      results.sqlite.push(await cpuPerTrip(TRIPS, () => select.get(n++)));
    }
    socket.destroy();
    const [b, p, s] = [medianOf(results.bare), medianOf(results.postgres), medianOf(results.sqlite)];
    console.log(`CPU of this process a round trip, median of ${ROUNDS} rounds of ${TRIPS}:`);
    console.log(`  bare TCP round trip (200 bytes)      ${b.toFixed(1).padStart(7)} µs   (rounds: ${results.bare.map((v) => v.toFixed(0)).join(', ')})`);
    console.log(`  PostgreSQL client, SELECT $1         ${p.toFixed(1).padStart(7)} µs   (rounds: ${results.postgres.map((v) => v.toFixed(0)).join(', ')})`);
    console.log(`  better-sqlite3, SELECT ?             ${s.toFixed(1).padStart(7)} µs   (rounds: ${results.sqlite.map((v) => v.toFixed(0)).join(', ')})`);
    console.log(`PostgreSQL client against a bare round trip: ${(p / b).toFixed(2)}×; against better-sqlite3: ${(p / s).toFixed(0)}×`);
  } finally {
    echo.stdin.end();
    sqlite.close();
    await sql.end();
    await cluster.stop();
  }
}

await main();
