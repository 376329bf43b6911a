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
//
// The fast path's files are compiled with V8's code cache, kept per node
// version in the user's cache directory (docs/performance.md says why
// there): compiling them is most of what they cost a run otherwise. Node 20
// has no compile cache of its own for user code, and any V8 flag would
// make node drop the one it has for its own modules, so this is done here
// with node:vm, and never with a flag.
'use strict';
const fs = require('node:fs');
const { dirname, join } = require('node:path');

const root = join(__dirname, '..');
const fastDir = join(root, 'dist', 'fast');

/**
 * Where compiled code is kept: the platform's per-user cache directory
 * ($XDG_CACHE_HOME, ~/.cache, ~/Library/Caches, %LOCALAPPDATA%), under
 * cdpctl/v8/<node version>-<arch>. Undefined when there is no home to put it in.
 */
function cacheDir(env) {
  const home = env.HOME || env.USERPROFILE;
  let base;
  if (env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith('/')) base = env.XDG_CACHE_HOME;
  else if (process.platform === 'win32') base = env.LOCALAPPDATA;
  else if (home) base = process.platform === 'darwin' ? join(home, 'Library', 'Caches') : join(home, '.cache');
  return base ? join(base, 'cdpctl', 'v8', `${process.version}-${process.arch}`) : undefined;
}

/**
 * A file's bytes and its stat, by the calls the rest of a run uses to read
 * files too (bounded-read.ts): node compiles each of its fs functions when
 * first called, so fewer kinds of call cost less. Throws as node does.
 */
function readWhole(path) {
  const fd = fs.openSync(path, 'r');
  try {
    const st = fs.fstatSync(fd);
    const bytes = Buffer.allocUnsafe(st.size);
    let at = 0;
    for (let n; at < bytes.length && (n = fs.readSync(fd, bytes, at, bytes.length - at, null)) > 0;) at += n;
    return { bytes: at === bytes.length ? bytes : bytes.subarray(0, at), st };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A directory only this user can write, made if need be: a cache another
 * user could write to could hand this process code to run. Anything else
 * (no home, a read-only one, a file in the way, a symbolic link) means no
 * cache this run.
 */
function ownedDir(dir) {
  const { O_RDONLY, O_DIRECTORY = 0, O_NOFOLLOW = 0 } = fs.constants;
  for (let made = false; ; made = true) {
    let fd;
    try {
      fd = fs.openSync(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch (err) {
      if (made || err.code !== 'ENOENT') return false;
      try {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      } catch {
        return false;
      }
      continue;
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isDirectory()) return false;
      return process.platform === 'win32' || (st.uid === process.getuid() && (st.mode & 0o022) === 0);
    } finally {
      fs.closeSync(fd);
    }
  }
}

/** A short, stable name for a path (FNV-1a): two installs of cdpctl keep caches apart. */
function pathKey(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/**
 * How many runs rewrite a cache after the one that made it. V8 compiles a
 * function when it first runs, and a cache holds the functions compiled by
 * the time it is written: each of these runs adds what it compiled (another
 * operation, another help page) to what it was given.
 */
const CACHE_GENERATIONS = 4;

/**
 * Loads the fast path's CommonJS files (dist/fast/*.cjs) with V8's code
 * cache. A cache is kept for each file and kind of run (a call, help, a
 * TAB), written once the run ends so that it holds what the run compiled,
 * not only the files' top level, and rewritten by the next few runs
 * (CACHE_GENERATIONS, counted in its first byte). It is named after the
 * file's path, size and time, and V8 itself refuses one made for other
 * code, another V8 or other flags. A missing, stale or refused cache is made
 * again; one that cannot be read or written only costs the compile it would
 * have saved.
 */
class CompiledLoader {
  constructor(kind, env) {
    this.kind = kind;
    this.dir = cacheDir(env);
    this.usable = undefined;
    this.toWrite = [];
    // module.constructor is node's Module: require('node:module') would load the ES module loader (~2 ms).
    this.Module = module.constructor;
    this.vm = require('node:vm');
  }

  /** The module's exports; node's require for anything but the fast path's own files. */
  load(filename, parent) {
    const Module = this.Module;
    const hit = Module._cache[filename];
    if (hit) return hit.exports;
    const file = readWhole(filename);
    // The bundle is ASCII (scripts/bundle.mjs checks): latin1 is the cheapest way to make it a string.
    const source = file.bytes.latin1Slice(0, file.bytes.length);
    const mod = new Module(filename, parent);
    mod.filename = filename;
    mod.paths = Module._nodeModulePaths(dirname(filename));
    Module._cache[filename] = mod;
    const cacheFile = this.cacheFileFor(filename, source.length, file.st);
    let cached;
    if (cacheFile) {
      try {
        cached = readWhole(cacheFile).bytes;
      } catch {
        cached = undefined;
      }
    }
    const generation = cached && cached.length > 1 ? cached[0] : 0;
    const cachedData = generation > 0 ? cached.subarray(1) : undefined;
    const script = new this.vm.Script(Module.wrap(source), { filename, cachedData });
    const refused = !cachedData || script.cachedDataRejected;
    if (cacheFile && (refused || generation < CACHE_GENERATIONS)) this.later(script, cacheFile, refused ? 1 : generation + 1);
    const fn = script.runInThisContext({ displayErrors: true });
    const req = (id) => (id.startsWith('./') && id.endsWith('.cjs') ? this.load(join(fastDir, id.slice(2)), mod) : mod.require(id));
    req.resolve = (id, options) => Module._resolveFilename(id, mod, false, options);
    req.cache = Module._cache;
    req.main = require.main;
    try {
      fn.call(mod.exports, mod.exports, req, mod, filename, dirname(filename));
    } catch (err) {
      delete Module._cache[filename];
      throw err;
    }
    mod.loaded = true;
    return mod.exports;
  }

  cacheFileFor(filename, length, st) {
    if (!this.dir) return undefined;
    this.usable ??= ownedDir(this.dir);
    if (!this.usable) return undefined;
    const name = filename.slice(fastDir.length + 1).replace(/\.cjs$/, '');
    return join(this.dir, `${pathKey(fastDir)}-${name}-${this.kind}-${length}-${Math.trunc(st.mtimeMs)}`);
  }

  /** The cache is written when the process ends, with what the run compiled by then. */
  later(script, cacheFile, generation) {
    if (this.toWrite.length === 0) process.once('exit', () => this.writeAll());
    this.toWrite.push([script, cacheFile, generation]);
  }

  writeAll() {
    const ours = `${pathKey(fastDir)}-`;
    for (const [script, cacheFile, generation] of this.toWrite) {
      try {
        // A new cache (not a rewrite) clears away those of earlier builds of the same file and kind, and those of
        // files this build no longer has.
        if (generation === 1) {
          const stem = cacheFile.slice(0, cacheFile.lastIndexOf('-', cacheFile.lastIndexOf('-') - 1) + 1);
          for (const old of fs.readdirSync(this.dir)) {
            const path = join(this.dir, old);
            const file = old.startsWith(ours) ? old.slice(ours.length).replace(/-[a-z]+-\d+-\d+$/, '.cjs') : undefined;
            const gone = file !== undefined && !fs.existsSync(join(fastDir, file));
            if ((path.startsWith(stem) && path !== cacheFile) || gone) fs.rmSync(path, { force: true });
          }
        }
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, Buffer.concat([Buffer.from([generation]), script.createCachedData()]), { mode: 0o600 });
        fs.renameSync(tmp, cacheFile);
      } catch {
        // An unwritable cache costs the next run a compile, nothing more.
      }
    }
  }
}

/**
 * Help the build wrote down (dist/help/<topic>.json, scripts/manifest.mjs):
 * a command's or a topic's help asked for with plain words (`iam users list
 * --help`, `iam list-users help`, `help iam users`), as the fast path
 * renders it for a pipe, or undefined to leave it to the fast path. Only
 * when help would be laid out at the pages' 80 columns: $COLUMNS says so,
 * or says nothing and stdout is no terminal (a terminal has its own width;
 * node:tty, which loads node:net, is asked only about a character device
 * other than /dev/null: pipes and files never are one).
 */
function writtenHelp(argv, env) {
  const last = argv[argv.length - 1];
  const marked = last === '--help' || last === '-h' || (last === 'help' && argv.length > 1);
  let words = marked ? argv.slice(0, -1) : argv;
  if (words[0] === 'help') {
    // The help command with a flag is oclif's (fast-run.ts fastHelp); with words only, the words are the topic or command.
    if (marked) return undefined;
    words = words.slice(1);
  } else if (!marked) return undefined;
  if (words.length === 0 || !words.every((w) => /^[a-z0-9][a-z0-9-]*$/.test(w))) return undefined;
  const columns = Number(env.COLUMNS);
  if (Number.isInteger(columns) && columns > 0) {
    if (Math.max(40, Math.min(columns, 120)) !== 80) return undefined;
  } else {
    // A terminal has a width of its own; /dev/null, the other character device stdout often is, gets 80.
    try {
      const st = fs.fstatSync(1);
      if (st.isCharacterDevice() && st.rdev !== fs.statSync('/dev/null').rdev && require('node:tty').isatty(1)) return undefined;
    } catch {
      return undefined;
    }
  }
  try {
    const book = JSON.parse(fs.readFileSync(join(root, 'dist', 'help', `${words[0]}.json`), 'utf8'));
    const at = book.index[words.slice(1).join(' ')];
    return typeof at === 'number' ? book.pages[at] : undefined;
  } catch {
    // No pages for that word (not a topic, or a build without them): the fast path answers.
    return undefined;
  }
}

/** Writes all of `text` to stdout's descriptor; a reader that went away (EPIPE) is no error. */
function writeOut(text) {
  const bytes = Buffer.from(text);
  try {
    for (let at = 0; at < bytes.length;) {
      try {
        at += fs.writeSync(1, bytes, at);
      } catch (err) {
        if (err.code !== 'EAGAIN') throw err;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
      }
    }
  } catch (err) {
    if (err.code !== 'EPIPE') throw err;
  }
}

/** What kind of run a command line is, for its compile cache: each kind compiles other parts of the fast path. */
function runKind(argv) {
  if (argv[0] === '__complete' || argv[0] === 'autocomplete') return 'complete';
  return argv.length === 0 || argv.some((a) => a === '--help' || a === '-h' || a === 'help') ? 'help' : 'call';
}

/** The fast path: always the bundle that `npm run build` writes. */
function loadFastPath(argv) {
  const entry = join(fastDir, 'fast-run.cjs');
  try {
    return new CompiledLoader(runKind(argv), process.env).load(entry, module);
  } catch (err) {
    if (err && err.code === 'ENOENT' && err.path === entry) {
      process.stderr.write('cdpctl: dist/fast/fast-run.cjs is missing; build first (npm run build)\n');
      process.exit(1);
    }
    throw err;
  }
}

async function main(argv) {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version')) {
    const { version } = JSON.parse(fs.readFileSync(join(root, 'package.json'), 'utf8'));
    process.stdout.write(`cdpctl/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
    return;
  }
  const fastPath = process.env.CDPCTL_NO_FAST_PATH !== '1';
  const help = fastPath ? writtenHelp(argv, process.env) : undefined;
  if (help !== undefined) return writeOut(help);
  const { completeForShell, completionScriptFor, fastRun, normalizeCommandLine } = loadFastPath(argv);
  // The completion script's question at each TAB (src/lib/cli/completion.ts): the raw line, never normalised.
  if (argv[0] === '__complete') return completeForShell(argv.slice(1), { root });
  // The completion script itself, which a shell's rc file asks for at every shell start.
  if (argv[0] === 'autocomplete') {
    const script = await completionScriptFor(argv, require('node:tty').isatty(1));
    if (script !== undefined) return void process.stdout.write(script);
  }
  const args = normalizeCommandLine(argv);
  const code = fastPath ? await fastRun(args, { root }) : undefined;
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
