#!/usr/bin/env node
// cdpctl entry point (CommonJS: bin/package.json). `--version` is answered
// without loading anything: it is the most common health check in scripts
// and should cost no more than a node start. The command line is normalised
// as the official CLI reads it (global flags anywhere, `help` as the last
// word; src/lib/cli/argv.ts). A plain API operation, and help for the root,
// topics and API commands, run through the fast path (src/lib/cli/fast-run.ts,
// bundled into dist/fast/ as CommonJS by scripts/bundle.mjs, so that node's
// ES module loader never starts) without oclif; hand-written commands and
// anything the fast path is unsure of go to oclif. CDPCTL_NO_FAST_PATH=1
// sends everything to oclif (tests compare the two).
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');

/** The fast path: always the bundle that `npm run build` writes. */
function loadFastPath() {
  try {
    return require(join(root, 'dist', 'fast', 'fast-run.cjs'));
  } catch (err) {
    if (err && err.code === 'MODULE_NOT_FOUND' && String(err.message).includes('fast-run.cjs')) {
      process.stderr.write('cdpctl: dist/fast/fast-run.cjs is missing; build first (npm run build)\n');
      process.exit(1);
    }
    throw err;
  }
}

async function main(argv) {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version')) {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    process.stdout.write(`cdpctl/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
    return;
  }
  const { completeForShell, completionScriptFor, fastRun, normalizeCommandLine } = loadFastPath();
  // The completion script's question at each TAB (src/lib/cli/completion.ts): the raw line, never normalised.
  if (argv[0] === '__complete') return completeForShell(argv.slice(1), { root });
  // The completion script itself, which a shell's rc file asks for at every shell start.
  const script = await completionScriptFor(argv, Boolean(process.stdout.isTTY));
  if (script !== undefined) return void process.stdout.write(script);
  const args = normalizeCommandLine(argv);
  const code = process.env.CDPCTL_NO_FAST_PATH === '1' ? undefined : await fastRun(args, { root });
  if (code === undefined) {
    const { execute } = require('@oclif/core');
    await execute({ args, dir: root });
  } else if (code !== 0) {
    // As oclif does after a command's error.
    process.exit(code);
  }
}

main(process.argv.slice(2)).catch((err) => {
  // Errors are reported where they happen; this is the last resort.
  process.stderr.write(`${err && err.stack ? err.stack : String(err)}\n`);
  process.exit(1);
});
