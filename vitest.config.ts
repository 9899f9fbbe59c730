import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // the integration tests; each package runs its own (packages/*/test) in its `test` task
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    // two cores: two test files at a time, each against its own database
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
