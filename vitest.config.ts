import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/packaging/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
