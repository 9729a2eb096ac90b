/**
 * The package version, inlined into the bundle at build time (the bundler inlines the JSON import), so
 * `sitectl --version` reads no file and loads no dependency (docs/architecture.md "Start-up").
 */
import pkg from '../../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
