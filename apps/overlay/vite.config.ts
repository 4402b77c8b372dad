import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

// Four pages, one bundle graph: the service serves dist/ as static files and the ws on the same origin.
// `vite dev` proxies /ws and /api to a service on MUSTER_SERVICE (default http://127.0.0.1:8080).
const service = process.env.MUSTER_SERVICE ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: here,
  base: './',
  build: {
    outDir: resolve(here, 'dist'),
    emptyOutDir: true,
    sourcemap: true,
    // three.js alone is ~550 kB minified; one shared chunk for four pages is the right trade here.
    chunkSizeWarningLimit: 800,
    rollupOptions: {
      input: {
        index: resolve(here, 'index.html'),
        map: resolve(here, 'map.html'),
        operator: resolve(here, 'operator.html'),
        projector: resolve(here, 'projector.html'),
        overlay: resolve(here, 'overlay.html'),
        phone: resolve(here, 'phone.html'),
      },
    },
  },
  server: {
    proxy: {
      '/ws': { target: service.replace(/^http/, 'ws'), ws: true },
      '/api': service,
      '/camera': { target: service.replace(/^http/, 'ws'), ws: true },
    },
  },
});
