/**
 * The import graph of src/ has no cycle (docs/architecture.md "Layout and dependency direction"); `npm run lint`
 * runs this after ESLint, and CI runs `npm run lint`. Try it alone with: npx depcruise src --config .dependency-cruiser.mjs
 *
 * - Dynamic imports count: a cycle closed by an `import()` is still a cycle. A lazy import is fine where the
 *   module it loads does not lead back (a leaf, or a module below the one that loads it).
 * - Type-only imports count too (tsPreCompilationDeps): they are erased from the build, so they cannot break the
 *   order modules load in, but they still say which module knows which, and a module that needs a type of the
 *   one above it is the place where layers tangle. The lower side declares the shape it needs instead.
 */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Imports in src/ run one way (docs/architecture.md "Layout and dependency direction"): move what both sides need below both, or pass it in.',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
