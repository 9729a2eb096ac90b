#!/usr/bin/env node
// CommonJS (bin/package.json says so): a CommonJS entry starts without Node's ESM loader, so `--version` costs
// no more than a bare `node -e 0`. Everything else enables Node's module compile cache (Node >= 22.1;
// NODE_COMPILE_CACHE picks its directory, NODE_DISABLE_COMPILE_CACHE=1 turns it off), so a command's chunks are
// compiled once rather than on every start, then loads the bundle.
'use strict';
const argv = process.argv.slice(2);
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  // Checked here, before the bundle (whose syntax and node:sqlite need it) is loaded.
  process.stderr.write(`error: sitectl needs Node 22.13 or newer (22, 24 or 26); this is Node ${process.versions.node}\n`);
  process.exitCode = 1;
} else if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  require('node:fs').writeSync(1, `${require('../package.json').version}\n`);
} else {
  require('node:module').enableCompileCache?.();
  import('../dist/main.js')
    .then(({ run }) => run(argv))
    .then((code) => {
      process.exitCode = code;
    });
}
