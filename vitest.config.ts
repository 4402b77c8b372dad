import { defineConfig } from 'vitest/config';

// One run covers every workspace: unit tests sit beside the code (x.test.ts), cross-cutting and
// end-to-end tests live in tests/. Slow parts (opencv.js on 4K frames, Chromium) get generous timeouts
// rather than being skipped.
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'calibration/**/*.test.ts', 'fixtures/**/*.test.ts', 'models/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
