import { defineConfig } from 'tsup';

// One ESM build. `src/ui/*` is reached only through dynamic import(), so esbuild's code splitting puts
// Ink and React in chunks that non-interactive commands never load (design.md, "Layout").
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  sourcemap: false,
  clean: true,
  outDir: 'dist',
  external: ['better-sqlite3'],
});
