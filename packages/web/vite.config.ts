import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The manifest lets `npm run size` find exactly the chunks the login page needs; `/api` and `/healthz`
// are proxied so `npm run dev` talks to a server started with `npm start` (port 8080 by default).
export default defineConfig({
  plugins: [react()],
  build: {
    manifest: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      // The shared package has no side effects at import time, but its package.json does not say so;
      // without this, every enum definition and catalogue it holds lands in the entry chunk.
      treeshake: { moduleSideEffects: (id) => (id.includes('/packages/shared/src/') ? false : undefined) },
      // Component names survive minification, so the error log names the component that failed.
      output: { keepNames: true },
    },
  },
  server: {
    proxy: {
      '/api': { target: process.env.API_TARGET ?? 'http://localhost:8080', ws: true },
      '/healthz': process.env.API_TARGET ?? 'http://localhost:8080',
    },
  },
});
