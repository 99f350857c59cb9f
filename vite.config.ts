import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { decodersPlugin } from './src/build/decodersPlugin.ts';
import { sampleScenes } from './src/build/sampleScenes.ts';

export default defineConfig({
  plugins: [react(), sampleScenes(), decodersPlugin()],
  server: { port: 5173, strictPort: false },
  // Two pages: the studio, and the page `cli tour` renders touring videos in (src/app/tour.html).
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
    rollupOptions: { input: { main: resolve(import.meta.dirname, 'index.html'), tour: resolve(import.meta.dirname, 'src/app/tour.html') } },
  },
  worker: { format: 'es' },
  test: {
    // Every core: vitest's default leaves one free, which on our 2-CPU CI machines ran the unit files
    // one at a time (619 s in CI; 358 s here on both cores).
    maxWorkers: Math.max(1, availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/hostile/**/*.test.ts'],
          environment: 'node',
          // Many of these start the command line as a user does; two files at a time on two cores, a
          // start can take longer than vitest's 5 s default (a clean-clone CI run timed one out at 5.0 s).
          testTimeout: 30_000,
          // Each file in its own module graph: sharing one per worker (isolate: false) took the suite from
          // 300 s to 200 s here, but Dexie then read the IndexedDB global once for every later file
          // ("IndexedDB API missing" in a clean-clone CI) and a CLI test passed its hang limit twice.
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One page at a time: the browser tests wait on frames and timings that a second Chromium
          // drawing beside them makes flaky on two cores.
          fileParallelism: false,
          // Each file starts its own server and browser; the test-side modules (oracles, loaders)
          // are imported once, not per file (37 s of a 900 s run).
          isolate: false,
        },
      },
      {
        // The scan-realism suite (`npm run test:scans`): every scan-like variant of both test houses,
        // driven and suggested on every agent × edge, and G in the browser on the scan-like house.
        extends: true,
        test: {
          name: 'scans',
          include: ['test/scans/**/*.test.ts'],
          environment: 'node',
          testTimeout: 900_000,
          hookTimeout: 120_000,
          // Its two browser tests draw a 0.8 M-triangle scan: one file at a time, as the browser tests.
          fileParallelism: false,
        },
      },
    ],
  },
});
