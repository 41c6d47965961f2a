// One worker of a crawl shared on PostgreSQL, as a child process of the
// cooperating-workers tests (test/crawl/pg-workers.*.test.ts) and the bench
// (bench/pg-workers.bench.ts): the library's crawl() into a PgStore. Uses the build.
// argv[2]: JSON { db, seeds, workerId, leaseMs, waitForGo, clockSkewMs, options } (options: crawl()'s
// data options; waitForGo: crawl after a line on stdin; clockSkewMs: this worker's clock runs that far ahead); a `db` that is not a postgres:// URL is a SQLite index file, which crawl()
// opens itself (the bench's comparison). Writes one JSON line when the store is open,
// one with the summary at the end.
const config = JSON.parse(process.argv[2]);
// A machine whose clock is off: every stamp of the worker's (the crawl's, the fetcher's,
// the store's) is read from it, as Date.now is, before any module keeps a reference to it.
const skew = config.clockSkewMs ?? 0;
if (skew !== 0) {
  const machineNow = Date.now;
  Date.now = () => machineNow() + skew;
}
const { crawl } = await import('../../dist/src/index.js');
const { PgStore } = await import('../../dist/src/store/index.js');

const isPostgres = /^postgres(ql)?:\/\//i.test(config.db);
const store = isPostgres ? await PgStore.open({ url: config.db, workerId: config.workerId, leaseMs: config.leaseMs }) : undefined;
process.stdout.write(`${JSON.stringify({ type: 'open', workerId: config.workerId, at: Date.now() })}\n`);
// The bench starts every worker's crawl at once, once all are open (start-up is not what it measures).
if (config.waitForGo === true) await new Promise((resolve) => process.stdin.once('data', resolve));
// The crawl's own CPU (crawlCpuMs), start-up left out.
const atGo = process.cpuUsage();
try {
  const where = store === undefined ? { db: config.db } : { store };
  const summary = await crawl(config.seeds, { ...config.options, ...where, userAgent: `linkladder-worker/${config.workerId}` });
  const { stoppedBy, requests, pagesFetched, pagesFailed, durationMs } = summary;
  const cpu = process.cpuUsage();
  const crawlCpuMs = Math.round((cpu.user + cpu.system - atGo.user - atGo.system) / 1000);
  process.stdout.write(`${JSON.stringify({ type: 'summary', stoppedBy, requests, pagesFetched, pagesFailed, durationMs, cpuMs: Math.round((cpu.user + cpu.system) / 1000), crawlCpuMs })}\n`);
} finally {
  await store?.close();
}
