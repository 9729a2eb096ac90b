/**
 * The import graph of src/ has no cycle, and each arrow docs/architecture.md "Layout and dependency direction" states
 * is a rule here (a module may import only what its arrow allows); `npm run lint`
 * runs this after ESLint, and CI runs `npm run lint`. Try it alone with: npx depcruise src --config .dependency-cruiser.mjs
 *
 * - Dynamic imports count: a cycle closed by an `import()` is still a cycle. A lazy import is fine where the
 *   module it loads does not lead back (a leaf, or a module below the one that loads it).
 * - Type-only imports count too (tsPreCompilationDeps): they are erased from the build, so they cannot break the
 *   order modules load in, but they still say which module knows which, and a module that needs a type of the
 *   one above it is the place where layers tangle. The lower side declares the shape it needs instead.
 */
/** A rule that `from` may not import `to`: one per arrow docs/architecture.md states. */
const arrow = (name, comment, from, to) => ({ name, severity: 'error', comment: `${comment} (docs/architecture.md "Layout and dependency direction")`, from, to });
/** Any module of ours. */
const OURS = '^src/';

export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Imports in src/ run one way (docs/architecture.md "Layout and dependency direction"): move what both sides need below both, or pass it in.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    arrow('core-is-a-leaf', 'src/core imports nothing else of ours but the path helpers of api/paths.ts and the pid check of api/pid.ts, which import nothing', { path: '^src/core/' }, { path: OURS, pathNot: '^src/(core/|api/(paths|pid)\\.ts$)' }),
    arrow('paths-import-nothing', 'api/paths.ts, shared by the client, the emulator and core, imports nothing of ours', { path: '^src/api/paths\\.ts$' }, { path: OURS }),
    arrow('pid-imports-nothing', 'api/pid.ts, shared by the emulator, local and core, imports nothing of ours', { path: '^src/api/pid\\.ts$' }, { path: OURS }),
    arrow('api-is-a-leaf', 'the typed client imports nothing else of ours', { path: '^src/api/' }, { path: OURS, pathNot: '^src/api/' }),
    arrow('bulk-on-api-and-core', 'the bulk engine knows nothing of commands, the terminal or the context', { path: '^src/bulk/' }, { path: OURS, pathNot: '^src/(bulk|api|core)/' }),
    arrow('ui-on-core', 'the Ink components import only core', { path: '^src/ui/' }, { path: OURS, pathNot: '^src/(ui|core)/' }),
    arrow('context-arrows', 'the Context imports its own parts, local, core and api', { path: '^src/context[^/]*\\.ts$' }, { path: OURS, pathNot: '^src/(context[^/]*\\.ts$|local/|core/|api/|ui/)' }),
    arrow('ui-loaded-lazily', 'src/ui (Ink, React) is loaded by a dynamic import only (a type import is erased)', { path: OURS, pathNot: '^src/ui/' }, { path: '^src/ui/', dependencyTypesNot: ['dynamic-import', 'type-only'] }),
    arrow('local-spawns-the-emulator', 'src/local finds, starts and stops the emulator as a process; it imports only core and api', { path: '^src/local/' }, { path: OURS, pathNot: '^src/(local|core|api)/' }),
    arrow('emulator-on-api', 'the emulator imports only the family tables and schemas of src/api', { path: '^src/emulator/' }, { path: OURS, pathNot: '^src/(emulator|api)/' }),
    arrow('nothing-imports-commands', 'nothing below the program imports src/commands', { path: OURS, pathNot: '^src/(commands/|program\\.ts$|cli\\.ts$|main\\.ts$)' }, { path: '^src/commands/' }),
    arrow(
      'emulator-in-process-twice',
      'only `emulator start` in the foreground and `emulator reset` of a stopped data directory run the emulator in process, by a dynamic import',
      { path: OURS, pathNot: '^src/(emulator/|commands/emulator/(start|reset)\\.ts$)' },
      { path: '^src/emulator/' },
    ),
    arrow('emulator-loaded-lazily', 'the emulator is loaded by a dynamic import only', { path: '^src/commands/' }, { path: '^src/emulator/', dependencyTypesNot: ['dynamic-import', 'type-only'] }),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
