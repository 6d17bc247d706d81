import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Many suites wait on loopback sockets and child processes rather than the CPU: three
    // workers keep a 2-core machine busy (vitest's default there is one).
    maxWorkers: 3,
  },
});
