import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The app is served by the API at /app/ (production build in dist/, committed so that `npm start`
 * of the API serves it with nothing to install). `npm run dev` serves it here with hot reload and
 * forwards the API's paths to a local API (API_URL, default http://localhost:4000), so the page
 * keeps talking to its own origin as it does in production.
 */
const api = process.env.API_URL ?? 'http://localhost:4000';

export default defineConfig({
  base: '/app/',
  plugins: [react()],
  server: {
    proxy: {
      '/graphql': api,
      '/dynamic-images': api,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // One entry and its stylesheet: the page policy allows scripts and styles from 'self' only.
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: true,
  },
});
