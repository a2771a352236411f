import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'sandbox/test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites start real services (sandbox, printers, Chromium): two workers on two cores.
    maxWorkers: 2,
    reporters: ['default', './test/support/summaryReporter.ts'],
  },
});
