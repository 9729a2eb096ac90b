import { readFile } from 'node:fs/promises';
import { constants as http2Constants } from 'node:http2';
import { defineConfig, type CodeSplittingGroup, type Plugin } from 'rolldown';
import { browsableNouns } from './src/commands/noun-list.ts';

/**
 * jq-wasm's Emscripten loader (the `--jq` flag, src/core/json-shape.ts) sets its script directory from
 * `__dirname`, which an ES module has not. The WebAssembly is inlined in the file as a data URI, so the directory
 * is never read: it is set to '' here, and the build fails if the loader changes shape.
 */
const jqWasmDirname: Plugin = {
  name: 'jq-wasm-dirname',
  load: {
    filter: { id: /[\\/]jq-wasm[\\/]dist[\\/]build[\\/]jq\.js$/ },
    async handler(id) {
      const source = await readFile(id, 'utf8');
      const dirname = 'scriptDirectory = __dirname + "/";';
      if (source.split(dirname).length !== 2 || source.split('__dirname').length !== 2) {
        throw new Error(`jq-wasm-dirname: ${id}: expected exactly one ${dirname}; update the plugin in rolldown.config.ts`);
      }
      if (!source.includes('data:application/octet-stream;base64,')) throw new Error(`jq-wasm-dirname: ${id}: the WebAssembly is no longer inlined`);
      return { code: source.replace(dirname, 'scriptDirectory = "";'), moduleType: 'js' };
    },
  },
};

/**
 * yoga-layout's Emscripten loader (Ink's layout engine: every interactive view) reads its WebAssembly, inlined as
 * a data URI, with the global `fetch` when there is one: that loads Node's own copy of undici, ~60-200 ms of every
 * view's first paint (docs/architecture.md "Start-up"). Its two `typeof fetch` tests are made false, so
 * the loader decodes the data URI itself, as it does where no fetch exists; the build fails if the loader changes
 * shape.
 */
const yogaWasmWithoutFetch: Plugin = {
  name: 'yoga-wasm-without-fetch',
  load: {
    filter: { id: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ },
    async handler(id) {
      const source = await readFile(id, 'utf8');
      const test = '"function"!=typeof fetch';
      if (source.split(test).length !== 3 || source.split('fetch(').length !== 3) {
        throw new Error(`yoga-wasm-without-fetch: ${id}: expected exactly two ${test} and two fetch calls; update the plugin in rolldown.config.ts`);
      }
      if (!source.includes('data:application/octet-stream;base64,')) throw new Error(`yoga-wasm-without-fetch: ${id}: the WebAssembly is no longer inlined`);
      return { code: source.replaceAll(test, 'true'), moduleType: 'js' };
    },
  },
};

/**
 * undici's client-h2.js requires `node:http2` at module top level, although a client only uses it for HTTP/2
 * connections (`allowH2`), which sitectl never asks for. Loading node:http2 also loads tls, crypto and parts of
 * readline: ~5-12 ms of every API command (docs/architecture.md "Start-up"). This rewrites that one require into
 * an object that holds the constants the module destructures at load (copied from this Node's http2 module; they
 * are protocol constants) and loads node:http2 on the first `connect()`. It fails the build if undici's code no
 * longer has the expected shape, so an undici upgrade cannot silently lose the rewrite or break HTTP/2.
 */
const lazyUndiciHttp2: Plugin = {
  name: 'lazy-undici-http2',
  load: {
    filter: { id: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/ },
    async handler(id) {
      const source = await readFile(id, 'utf8');
      const fail = (why: string): never => {
        throw new Error(`lazy-undici-http2: ${id}: ${why}; update the plugin in rolldown.config.ts`);
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
      return { code: source.replace(eager, lazy), moduleType: 'js' };
    },
  },
};

/**
 * The platform nouns whose `list` verb is the model of a short command: every noun with a list, from the one list
 * of nouns (src/commands/noun-list.ts); the first to claim a module keeps it.
 */
const LIST_NOUNS = browsableNouns().map((n) => n.name);

/**
 * The chunks of the short commands' path (docs/runtime.md §3). Each file the ESM loader resolves, reads and links
 * costs ~0.2 ms at start-up whatever its size, and automatic code splitting makes one file per set of dynamic
 * imports that share a module: `services list --json` loaded 42 files. This plugin reads the module graph once it
 * is built and names, by static reachability (what a dynamic `import()` reaches is never captured, so Ink, React,
 * the emulator and date-fns stay out unless a root imports them statically):
 *
 * - `cli`: what every command loads, the static closure of src/main.ts and src/cli.ts (Commander, the
 *   program, the Context). main.js imports it statically: the one command that needs neither, `--version`, is
 *   answered by bin/sitectl.js before main.js is read.
 * - `api`: what every command that calls the platform adds, the static closure of src/context-deps.ts (the
 *   client, the profiles file, zod).
 * - `reads`: what every list verb built on commands/shared/verbs.ts loads (the intersection of their closures:
 *   paging, output, filters, field lists).
 * - `noun-<noun>`: the rest of each {@link LIST_NOUNS} noun's `list` path (its index, verb, family and views).
 * - `writes`: the rest of what every write verb loads, the static closure of commands/shared/one.ts and
 *   commands/shared/bulk.ts (the one verb engine's terminal side and the bulk engine under it), claimed after the
 *   nouns so that no list loads it.
 *
 * Every other module is left to automatic splitting. The build fails if a root is missing, so a move of these
 * files cannot silently undo the grouping.
 */
function hotPathChunks(): { plugin: Plugin; groups: CodeSplittingGroup[] } {
  const roles = new Map<string, string>();
  const plugin: Plugin = {
    name: 'hot-path-chunks',
    buildEnd() {
      roles.clear();
      const ids = [...this.getModuleIds()];
      const one = (path: string): string => {
        const found = ids.filter((id) => id.replaceAll('\\', '/').endsWith(`/src/${path}`));
        if (found.length !== 1) throw new Error(`hot-path-chunks: src/${path} found ${found.length} times; update rolldown.config.ts`);
        return found[0]!;
      };
      const closure = (roots: string[]): Set<string> => {
        const seen = new Set(roots);
        const todo = [...roots];
        for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
          for (const dep of this.getModuleInfo(id)?.importedIds ?? []) {
            if (!seen.has(dep)) {
              seen.add(dep);
              todo.push(dep);
            }
          }
        }
        return seen;
      };
      const claim = (role: string, modules: Iterable<string>): void => {
        for (const id of modules) if (!roles.has(id)) roles.set(id, role);
      };
      const main = one('main.ts');
      claim('cli', closure([main, one('cli.ts')]));
      roles.delete(main);
      claim('api', closure([one('context-deps.ts')]));
      const verbs = one('commands/shared/verbs.ts');
      const lists = LIST_NOUNS.map((noun) => ({ noun, modules: closure([one(`commands/${noun}/index.ts`), one(`commands/${noun}/list.ts`)]) }));
      const readers = lists.filter((l) => l.modules.has(verbs));
      if (readers.length < 2) throw new Error('hot-path-chunks: fewer than two list verbs use commands/shared/verbs.ts; update rolldown.config.ts');
      claim('reads', [...readers[0]!.modules].filter((id) => readers.every((l) => l.modules.has(id))));
      for (const { noun, modules } of lists) claim(`noun-${noun}`, modules);
      claim('writes', closure([one('commands/shared/one.ts'), one('commands/shared/bulk.ts')]));
    },
  };
  const group = (name: string, priority: number): CodeSplittingGroup => ({ name, priority, test: (id: string) => roles.get(id) === name });
  const groups = [group('cli', 100), group('api', 90), group('reads', 80), ...LIST_NOUNS.map((noun, i) => group(`noun-${noun}`, 70 - i)), group('writes', 10)];
  return { plugin, groups };
}

const chunks = hotPathChunks();

// One ESM build with every dependency bundled in (the emulator's SQLite is Node's own node:sqlite), from one
// entry, src/main.ts. Everything past the common path is reached through dynamic import(), so code splitting
// keeps Ink, React, the emulator server, undici (src/api/transport.ts), conf, the column engine and date-fns out
// of the chunks that non-interactive commands load (docs/architecture.md "Layout and dependency direction");
// hotPathChunks groups the short commands' path into a few files. Rolldown turns the bundled CommonJS modules'
// require() of Node built-ins into a createRequire of its own.
export default defineConfig({
  // emulator-seed: the child process a large emulator seed runs in (src/emulator/seed/in-file.ts).
  input: { main: 'src/main.ts', 'emulator-seed': 'src/emulator/seed/child.ts' },
  platform: 'node',
  // react-devtools-core is an optional import of Ink that only runs with DEV=true; it is not installed.
  external: ['react-devtools-core'],
  plugins: [lazyUndiciHttp2, jqWasmDirname, yogaWasmWithoutFetch, chunks.plugin],
  // React (Ink's renderer) and the other bundled modules take their production paths: React's development build
  // checks every render (about 2x the work of a dashboard's first paint); nothing of sitectl reads NODE_ENV.
  transform: { target: 'node22', define: { 'process.env.NODE_ENV': '"production"' } },
  checks: { ineffectiveDynamicImport: false },
  output: {
    dir: 'dist',
    format: 'es',
    cleanDir: true,
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    codeSplitting: { groups: chunks.groups },
  },
});
