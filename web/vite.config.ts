import { defineConfig } from 'vite';

// Preact's automatic JSX runtime through Vite's own esbuild transform (no plugin needed).
export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2020' },
});
