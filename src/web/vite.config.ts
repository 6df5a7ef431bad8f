// Vite build of the console: src/web → dist/web (served by `memledger serve`), Preact, everything bundled locally.
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/',
  // The console has no static folder; everything it loads is bundled into dist/web/assets.
  publicDir: false,
  plugins: [preact({ prefreshEnabled: false, devtoolsInProd: false })],
  build: {
    outDir: here('../../dist/web'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // The preload polyfill would be an inline script, which the console's Content-Security-Policy forbids.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  // `vite --config src/web/vite.config.ts` for development: the API of a `memledger serve` on the default port.
  server: {
    proxy: {
      '/v1': 'http://127.0.0.1:8787',
      '/openapi.json': 'http://127.0.0.1:8787',
    },
  },
});
