#!/usr/bin/env node
// Build step after tsc: bundles the fast path (dist/lib/cli/fast-run.js and
// what it imports of ours) into dist/fast/, one file plus a chunk per lazily
// loaded part (run-operation, help, each service's model). Packages stay in
// node_modules. Loading a few files instead of ~30 saves node's module loader
// ~20 ms per API call.
//
// The chunks are CommonJS (.cjs), loaded with require() by bin/run.js (itself
// CommonJS): a run that never imports an ES module never starts node's ESM
// loader, which costs ~5 ms of every start. esbuild splits only ES modules, so
// the split ES output is turned into CommonJS file by file: chunk imports and
// node: builtins become require(), packages imported lazily keep import()
// (some are ES only); a static import of an ES-only package fails the build. bin/run.js loads this bundle and no
// other build of the fast path, so `npm run build` (tsc, then this) is what makes a change reach it.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'fast');
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: [join(root, 'dist', 'lib', 'cli', 'fast-run.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  write: false,
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

const cjsName = (file) => basename(file).replace(/\.js$/, '.cjs');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/**
 * Node modules that cost a run to load and that many runs never use (help needs no crypto, network or
 * streams; a call whose terminals are pipes needs no tty): required when first used rather than when the
 * file loads. esbuild reaches a builtin only as `import_node_x.name`, so a stand-in that requires the module
 * at its first property read is all it takes.
 */
const LAZY_BUILTINS = ['child_process', 'crypto', 'net', 'os', 'stream', 'tls', 'tty'];
const LAZY_HELPER =
  'const __lazyBuiltin = (id) => { let m; return new Proxy({}, { get: (_, key) => (m ??= require(id))[key], has: (_, key) => key in (m ??= require(id)) }); };';

function lazyBuiltins(code) {
  let lazy = false;
  const out = code.replace(/^var (\w+) = require\("node:([\w/]+)"\);$/gm, (line, name, id) => {
    if (!LAZY_BUILTINS.includes(id)) return line;
    lazy = true;
    return `var ${name} = __lazyBuiltin("node:${id}");`;
  });
  return lazy ? `${LAZY_HELPER}\n${out}` : out;
}
const requireFromRoot = createRequire(join(root, 'package.json'));
/** Whether require() can load the package (it is CommonJS); node 20 refuses to require an ES module. */
function requirable(name) {
  try {
    requireFromRoot(name);
    return true;
  } catch (err) {
    if (err && err.code === 'ERR_REQUIRE_ESM') return false;
    throw err;
  }
}
mkdirSync(outdir, { recursive: true });
/** Each output file's CommonJS text, by its name in dist/fast. */
const files = new Map();
for (const file of result.outputFiles) {
  // Chunk names end in .cjs; static package imports become require(), which an ES-only package refuses.
  const esm = file.text.replace(/(["'])\.\/([\w-]+)\.js\1/g, '$1./$2.cjs$1');
  for (const [, name] of esm.matchAll(/^import\s[^;]*?from\s*["'](?!\.|node:)([^"']+)["']/gm)) {
    if (!requirable(name))
      throw new Error(`bundle: ${basename(file.path)} imports the ES-only package ${name} statically; import it lazily`);
  }
  const { code } = await transform(esm, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    loader: 'js',
    // import.meta.url is worked out when first read (node:url's pathToFileURL costs half a millisecond); the version
    // is the build's (user-agent.ts reads package.json only outside the bundle).
    define: { 'import.meta.url': '__importMeta.url', __CDPCTL_VERSION__: JSON.stringify(pkg.version) },
    banner: /import\.meta\.url/.test(esm)
      ? 'const __importMeta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };'
      : '',
  });
  // bin/run.js compiles these files with node:vm (for V8's code cache), where import() has no loader: every
  // dynamic import becomes require(). A package's gets the namespace node's import() would give a CommonJS
  // package (its exports, and `default` the whole of them).
  const cjs = code
    .replace(/\bimport\((["'])(\.\/[\w-]+\.cjs|node:[\w/]+)\1\)/g, (_, q, spec) => `Promise.resolve().then(() => require(${q}${spec}${q}))`)
    .replace(/\bimport\((["'])([^"'.][^"']*)\1\)/g, (_, q, name) => {
      if (!requirable(name))
        throw new Error(`bundle: ${basename(file.path)} imports the ES-only package ${name}; the fast path cannot load it`);
      return `Promise.resolve().then(() => { const m = require(${q}${name}${q}); return { ...m, default: m }; })`;
    });
  if (/\bimport\(/.test(cjs)) throw new Error(`bundle: ${basename(file.path)} still has an import() the fast path cannot run`);
  files.set(cjsName(file.path), lazyBuiltins(cjs));
}

/** The chunks a file requires when it loads (its top-level `var x = require("./chunk.cjs")`), not those it loads lazily. */
const staticChunks = (code) => [...code.matchAll(/^var \w+ = require\("\.\/([\w-]+\.cjs)"\);$/gm)].map((m) => m[1]);

// fast-run.cjs and every chunk it loads with it are packed into that one file, each chunk a function run when
// first required and registered in require.cache under its own file name: the lazily loaded chunks (a
// service's model, tables, completion) find it there, so no chunk ever runs twice. One file to read and
// one compile cache for the whole of a call's code, instead of one per chunk.
const ENTRY = 'fast-run.cjs';
const packed = [];
for (const queue = [ENTRY]; queue.length > 0;) {
  const name = queue.shift();
  if (packed.includes(name)) continue;
  const code = files.get(name);
  if (code === undefined) throw new Error(`bundle: ${name} is required but was not built`);
  packed.push(name);
  queue.push(...staticChunks(code));
}
const pack = [
  '"use strict";',
  '// Several chunks of the fast path in one file (scripts/bundle.mjs); each runs when first required.',
  'const __packed = {',
  ...packed.map((name) => `${JSON.stringify(name)}: function (exports, require, module, __filename, __dirname) {\n${files.get(name)}\n},`),
  '};',
  'const __outer = require;',
  'function __require(id) {',
  '  const name = id.startsWith("./") ? id.slice(2) : "";',
  `  if (!Object.hasOwn(__packed, name) || name === ${JSON.stringify(ENTRY)}) return __outer(id);`,
  '  const filename = require("node:path").join(__dirname, name);',
  '  const hit = __outer.cache[filename];',
  '  if (hit) return hit.exports;',
  '  const mod = { id: filename, filename, exports: {}, loaded: false, children: [], paths: module.paths, require: __require };',
  '  __outer.cache[filename] = mod;',
  '  __packed[name].call(mod.exports, mod.exports, __require, mod, filename, __dirname);',
  '  mod.loaded = true;',
  '  return mod.exports;',
  '}',
  `__packed[${JSON.stringify(ENTRY)}].call(exports, exports, __require, module, __filename, __dirname);`,
].join('\n');
// bin/run.js reads these files as latin1 (the cheapest way to a string): they must be ASCII, as esbuild writes them.
for (const [name, code] of files) if (/[\u0080-\uffff]/.test(code)) throw new Error(`bundle: ${name} is not ASCII`);
for (const [name, code] of files) if (!packed.includes(name)) writeFileSync(join(outdir, name), code);
writeFileSync(join(outdir, ENTRY), pack + '\n');

// The emulator's process (dist/lib/emulator/main.js, what `emulator start --detach` runs) as one ES module
// file, dist/emulator/main.mjs: its ~180 modules (every service, the engine, the models) load in a fraction
// of the time one by one. Packages stay in node_modules; the services' and models' dynamic imports by name
// are bundled in (esbuild follows `./${topic}/index.js`).
await build({
  entryPoints: [join(root, 'dist', 'lib', 'emulator', 'main.js')],
  outfile: join(root, 'dist', 'emulator', 'main.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
