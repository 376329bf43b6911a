#!/usr/bin/env node
// Build step after tsc: bundles the fast path (dist/lib/cli/fast-run.js and
// what it imports of ours) into dist/fast/, one file plus a chunk per lazily
// loaded part (run-operation, each service's model). Packages stay in
// node_modules. Loading a few files instead of ~30 saves node's ESM loader
// ~20 ms per API call. bin/run.js uses the bundle only when it is newer than
// tsc's output, so a tsc-only rebuild is never shadowed by a stale bundle.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'fast');
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'dist', 'lib', 'cli', 'fast-run.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Packages stay in node_modules (the INI reader is our own now, src/lib/core/ini.ts).
  plugins: [
    {
      name: 'packages-external',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('node:') ? undefined : { path: args.path, external: true }));
      },
    },
  ],
  logLevel: 'warning',
});
