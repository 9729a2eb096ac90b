/**
 * The package version, inlined into the bundle at build time (esbuild bundles the JSON import), so
 * `sitectl --version` reads no file and loads no dependency (issue 2 section 7).
 */
import pkg from '../../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
