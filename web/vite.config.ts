import { fileURLToPath, pathToFileURL } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * `virtual:integration-events`: each implemented integration's event names (its module's `eventTypes`, Zulip's
 * all_event_types), read from the compiled library at build time, so the integrations page offers Zulip's
 * `only_events` choices without bundling the translations. `npm run build` compiles libs/ before the web client.
 */
function integrationEvents(): Plugin {
  const id = 'virtual:integration-events';
  return {
    name: 'confab-integration-events',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    async load(resolved) {
      if (resolved !== `\0${id}`) return undefined;
      const registry = fileURLToPath(new URL('../libs/integrations/dist/registry.js', import.meta.url));
      const { INTEGRATIONS } = (await import(pathToFileURL(registry).href)) as {
        INTEGRATIONS: ReadonlyMap<string, { eventTypes?: readonly string[] }>;
      };
      const events: Record<string, readonly string[]> = {};
      for (const [name, integration] of INTEGRATIONS)
        if (integration.eventTypes?.length) events[name] = integration.eventTypes;
      return `export default ${JSON.stringify(events)};`;
    },
  };
}

// Preact's automatic JSX runtime through Vite's own esbuild transform (no plugin needed).
export default defineConfig({
  plugins: [integrationEvents()],
  // The catalog from its source (the compiled library is CommonJS for Node): names and categories only, no code.
  // Zulip's vocabulary likewise (libs/zulip: pure, no Node).
  resolve: {
    alias: {
      '@confab/integrations/catalog': fileURLToPath(new URL('../libs/integrations/src/catalog.ts', import.meta.url)),
      '@confab/zulip': fileURLToPath(new URL('../libs/zulip/src/index.ts', import.meta.url)),
    },
  },
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2020' },
});
