import { readdir, readFile, writeFile } from 'node:fs/promises';
import { constants as http2Constants } from 'node:http2';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';

/**
 * undici's client-h2.js requires `node:http2` at module top level, although a client only uses it for HTTP/2
 * connections (`allowH2`), which sitectl never asks for. Loading node:http2 also loads tls, crypto and parts of
 * readline: ~5-12 ms of every API command (issue 2 section 7). This rewrites that one require into an object
 * that holds the constants the module destructures at load (copied from this Node's http2 module; they are
 * protocol constants) and loads node:http2 on the first `connect()`. It fails the build if undici's code no
 * longer has the expected shape, so an undici upgrade cannot silently lose the rewrite or break HTTP/2.
 */
const lazyUndiciHttp2: Plugin = {
  name: 'lazy-undici-http2',
  setup(build) {
    build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const fail = (why: string): never => {
        throw new Error(`lazy-undici-http2: ${args.path}: ${why}; update the plugin in tsup.config.ts`);
      };
      const eager = "http2 = require('node:http2')";
      if (source.split(eager).length !== 2) fail(`expected exactly one ${eager}`);
      const destructured = /\nconst \{\n {2}constants: \{\n([\s\S]*?)\n {2}\}\n\} = http2\n/.exec(source);
      if (!destructured) fail('the destructuring of http2.constants was not found');
      const names = destructured![1]!.split(',').map((n) => n.trim());
      const constants: Record<string, string | number> = {};
      for (const name of names) {
        const value = (http2Constants as Record<string, string | number | undefined>)[name];
        if (!/^\w+$/.test(name) || value === undefined) fail(`unknown http2 constant ${JSON.stringify(name)}`);
        constants[name] = value!;
      }
      const members = new Set([...source.matchAll(/\bhttp2\.(\w+)/g)].map((m) => m[1]));
      if ([...members].some((m) => m !== 'connect')) fail(`http2 members other than connect used: ${[...members].join(', ')}`);
      const lazy =
        `http2 = { constants: ${JSON.stringify(constants)}, ` +
        `connect: (...args) => require('node:http2').connect(...args) }`;
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};

// Bundled CommonJS dependencies call require() for Node built-ins; ESM output has no require of its own, so every
// chunk starts with this line (tsup has one banner for all chunks).
const REQUIRE_BANNER = "import { createRequire as __sitectlCreateRequire } from 'node:module'; const require = __sitectlCreateRequire(import.meta.url);";

/**
 * Takes the require banner off the chunks that never name `require` (all but a dozen of ~270): each costs a
 * createRequire and a file-URL conversion at load, ~1-2 ms over the ~40 chunks of a short command. A chunk that
 * mentions the word anywhere keeps it.
 */
async function dropUnusedRequireBanner(): Promise<void> {
  for (const file of await readdir('dist')) {
    if (!file.endsWith('.js')) continue;
    const path = `dist/${file}`;
    const text = await readFile(path, 'utf8');
    if (!text.startsWith(`${REQUIRE_BANNER}\n`)) continue;
    const body = text.slice(REQUIRE_BANNER.length + 1);
    if (!/\brequire\b/.test(body)) await writeFile(path, body);
  }
}

// One ESM build with every dependency bundled in (the emulator's SQLite is Node's own node:sqlite): without a
// module compile cache each file the loader resolves, reads and links costs start-up time, and most commands are short.
// Past the `--version` fast path, main.ts loads src/cli.ts, which holds the common path statically, then the
// invoked noun's chunk. `src/ui/*`, the emulator server, undici (src/api/transport.ts), conf, the column engine and
// date-fns are reached only through dynamic import(), so code splitting keeps Ink, React and the emulator out
// of the chunks that non-interactive commands load (design.md, "Layout").
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  splitting: true,
  sourcemap: false,
  clean: true,
  outDir: 'dist',
  // react-devtools-core is an optional import of Ink that only runs with DEV=true; it is not installed.
  external: ['react-devtools-core'],
  esbuildPlugins: [lazyUndiciHttp2],
  noExternal: [/^(?!react-devtools-core$).*/],
  banner: { js: REQUIRE_BANNER },
  onSuccess: dropUnusedRequireBanner,
});
