import { defineConfig } from 'tsup';

// One ESM build with every dependency bundled in except the native SQLite addon: on Node 20 (no module compile
// cache) each file the loader resolves, reads and links costs start-up time, and most commands are short.
// `src/ui/*`, the emulator and each noun are reached only through dynamic import(), so code splitting keeps Ink,
// React and better-sqlite3 out of the chunks that non-interactive commands load (design.md, "Layout").
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  sourcemap: false,
  clean: true,
  outDir: 'dist',
  // react-devtools-core is an optional import of Ink that only runs with DEV=true; it is not installed.
  external: ['better-sqlite3', 'react-devtools-core'],
  noExternal: [/^(?!better-sqlite3$|react-devtools-core$).*/],
  // Bundled CommonJS dependencies call require() for Node built-ins; ESM output has no require of its own.
  banner: { js: "import { createRequire as __sitectlCreateRequire } from 'node:module'; const require = __sitectlCreateRequire(import.meta.url);" },
});
