/**
 * The package version, inlined into the bundle at build time (esbuild bundles the JSON import), so
 * `sitectl --version` reads no file and loads no dependency (docs/architecture.md "Start-up").
 */
import pkg from '../../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
