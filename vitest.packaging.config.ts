import { defineConfig } from 'vitest/config';

// The packaging suites (`npm run test:packaging`, after `npm test` in CI): each installs packages
// with npm, so a test may take minutes, and the files run one at a time so that their times
// stay their own.
export default defineConfig({
  test: {
    include: ['test/packaging/**/*.test.ts'],
    testTimeout: 15 * 60_000,
    hookTimeout: 15 * 60_000,
    fileParallelism: false,
  },
});
