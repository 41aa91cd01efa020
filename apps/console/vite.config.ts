import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

// The console is served by Hawser at /ui from dist/ui (apps/api/src/console).
export default defineConfig({
  root: here('.'),
  base: '/ui/',
  plugins: [preact()],
  logLevel: 'warn',
  build: {
    outDir: here('../../dist/ui'),
    emptyOutDir: true,
    sourcemap: false,
    // Chart.js and Cytoscape are large; they are loaded only by the pages that draw.
    chunkSizeWarningLimit: 700,
    // The timing report is for profiling a build, not for every start.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
});
