import { defineConfig } from 'vitest/config';
import LongFilesFirst from './test/support/long-files-first.js';

// Two projects. `unit` (npm run test:unit) is every test file that starts nothing: no
// server listens, no child process or worker thread starts (test/support/starts-nothing.mjs
// makes each of those throw in a unit process), and it takes seconds, not minutes.
// `integration` is the files below: they start the demo server, a loopback HTTP server,
// Chromium, the built CLI or a worker, or take a minute on their own. `postgres` is the
// files that use PostgreSQL. `npm test` (and bare `vitest run`) runs all three.
//
// A new test file is a unit test until it starts something: then its first run in the
// unit project fails, naming this list, and it is added here. Store test files are
// named by basename (test/store/**/) so they stay classified when they move.
const INTEGRATION = [
  'test/api.crawl.test.ts',
  'test/ci/action.test.ts',
  'test/cli/changed-files.test.ts',
  'test/cli/check.test.ts',
  'test/cli/commands/audit-since.test.ts',
  'test/cli/commands/audit.test.ts',
  'test/cli/commands/crawl-checks.test.ts',
  'test/cli/commands/crawl-content-evidence.test.ts',
  'test/cli/commands/crawl-second-pass.test.ts',
  'test/cli/commands/crawl-sitemap.test.ts',
  'test/cli/commands/crawl.test.ts',
  'test/cli/commands/db.test.ts',
  'test/cli/commands/demo.test.ts',
  'test/cli/commands/exit-codes.test.ts',
  'test/cli/commands/explain.test.ts',
  'test/cli/commands/graph-golden.test.ts',
  'test/cli/commands/output-options.test.ts',
  'test/cli/commands/report.test.ts',
  'test/cli/commands/wacz.test.ts',
  'test/cli/crawl-kill-requests.test.ts',
  'test/cli/crawl-warc.test.ts',
  'test/cli/crawl-kill.test.ts',
  'test/cli/demo/expected-requests.test.ts',
  'test/cli/demo/server.test.ts',
  'test/cli/http2.test.ts',
  'test/cli/main.test.ts',
  'test/cli/parse-threads.test.ts',
  'test/cli/read-only.test.ts',
  'test/cli/run-crawl.test.ts',
  'test/cli/secrets.test.ts',
  'test/cli/staging-credentials.test.ts',
  'test/cli/writer-lock.test.ts',
  'test/docs/examples.test.ts',
  'test/docs/links.test.ts',
  'test/entry/subpath-exports.test.ts',
  'test/package-files.test.ts',
  'test/crawl/adaptive-politeness.test.ts',
  'test/crawl/body-cap.test.ts',
  'test/crawl/check-links.test.ts',
  'test/crawl/content-evidence.reachable.test.ts',
  'test/crawl/content-evidence.test.ts',
  'test/crawl/crawl-requests.test.ts',
  'test/crawl/demo-site.test.ts',
  'test/crawl/host-breaker.test.ts',
  'test/crawl/ignore-robots.test.ts',
  'test/crawl/markdown-pages.test.ts',
  'test/crawl/page-reading.test.ts',
  'test/crawl/parse-pool.test.ts',
  'test/crawl/private-address.dns.test.ts',
  'test/crawl/recheck.test.ts',
  'test/crawl/recheck.resume.test.ts',
  'test/crawl/robots-outage.test.ts',
  'test/crawl/robots-pace.test.ts',
  'test/crawl/second-pass.test.ts',
  'test/crawl/sitemap-seeds.test.ts',
  'test/crawl/slow-host.test.ts',
  'test/crawl/host-turns.test.ts',
  'test/crawl/truncated-body.test.ts',
  'test/crawl/verdict-cache.test.ts',
  'test/crawl/verdict.crawl.test.ts',
  'test/fetch/create-fetcher.*.test.ts',
  'test/fetch/file-fetcher.test.ts',
  'test/fetch/proxy.test.ts',
  'test/fetch/tls.test.ts',
  'test/cli/proxy-tls.test.ts',
  'test/fetch/response-sink.test.ts',
  'test/fetch/robots-policy.cache.test.ts',
  'test/fetch/robots-policy.test.ts',
  // Pure, but a minute of CPU each.
  'test/html/markdown-links.test.ts',
  'test/report/graph/large-graph.test.ts',
  'test/report/audit/audit.test.ts',
  'test/report/audit/fixtures.test.ts',
  'test/report/audit/negotiated-manual.test.ts',
  'test/report/graph/external-readers.test.ts',
  'test/report/html/report-browser.test.ts',
  'test/archive/wacz.replay.test.ts',
  'test/store/**/crash.test.ts',
  'test/store/**/sql-views.test.ts',
  'test/store/**/writer-lock.test.ts',
  'test/support/negotiated-manual-server.test.ts',
  'test/support/delaying-proxy.test.ts',
];

/**
 * The files that call startPostgres(): they share one cluster per run (the project's global
 * setup, test/support/postgres-global-setup.ts), each in databases of its own.
 */
const POSTGRES = [
  'test/cli/pg-db.test.ts',
  'test/cli/pg-reports.test.ts',
  'test/cli/pg-pooling.test.ts',
  'test/cli/pg-partitions.test.ts',
  'test/crawl/pg-workers.leases.test.ts',
  'test/crawl/pg-workers.process.test.ts',
  'test/crawl/pg-workers.shared-targets.test.ts',
  'test/crawl/pg-workers.recheck.test.ts',
  'test/crawl/pg-workers.robots-pace.test.ts',
  'test/crawl/pg-workers.restart.test.ts',
  'test/crawl/verdict-cache.stores.test.ts',
  'test/open-index.test.ts',
  
  'test/store/**/contract.test.ts',
  'test/store/**/reader-contract.test.ts',
  'test/store/pg/**/admission-race.test.ts',
  'test/store/pg/**/database.test.ts',
  'test/store/pg/**/frontier.test.ts',
  'test/store/pg/**/hash-partition.test.ts',
  'test/store/pg/**/partitions.test.ts',
  'test/store/pg/**/postgres-cluster.test.ts',
  'test/store/pg/**/reader.test.ts',
  'test/store/pg/**/round-trips.test.ts',
  'test/store/pg/**/statements.test.ts',
  'test/store/pg/**/sitemap-leases.test.ts',
  'test/store/pg/**/store-leases.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // Two files at once on two cores: a hook that writes thousands of files may take longer than vitest's 10 s.
    hookTimeout: 30_000,
    reporters: ['default'],
    // vitest's default is one worker fewer than the cores: one on CI's two, which left the second idle.
    maxWorkers: 2,
    sequence: { sequencer: LongFilesFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...INTEGRATION, ...POSTGRES],
          // No test reaches past loopback: DNS answers localhost only (test/support/loopback-only.mjs).
          setupFiles: ['test/support/loopback-only.mjs', 'test/support/starts-nothing.mjs'],
          // Files that start nothing share their worker's modules: each module is loaded once per
          // worker thread, not once per file (a third of the CPU the unit files cost when isolated).
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION,
          setupFiles: ['test/support/loopback-only.mjs'],
          // The run's shared crawls of the demo site, for files that only read an index of it.
          globalSetup: ['test/support/demo-index-global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: POSTGRES,
          setupFiles: ['test/support/loopback-only.mjs'],
          globalSetup: ['test/support/postgres-global-setup.ts'],
        },
      },
    ],
  },
});
