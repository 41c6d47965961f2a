import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    // No test reaches past loopback: DNS answers localhost only (test/support/loopback-only.mjs).
    setupFiles: ['test/support/loopback-only.mjs'],
    reporters: ['default'],
  },
});
