import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * SharedArrayBuffer needs a cross-origin isolated page: every response carries COOP and COEP
 * (and CORP so the page's own workers and assets may load under require-corp).
 */
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const port = Number(process.env.PORT ?? 4173);

export default defineConfig({
  plugins: [react()],
  server: { port, strictPort: false, headers: isolationHeaders },
  preview: { port, strictPort: true, headers: isolationHeaders },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      onwarn(warning, warn) {
        // zod's sources carry /* @__PURE__ */ comments in positions Rollup ignores: harmless
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
});
