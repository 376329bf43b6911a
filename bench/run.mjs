#!/usr/bin/env node
// cdpctl benchmarks (npm run bench): every figure beside this machine's own
// baseline measured in the same run. Needs a build (npm run build).
//
//   node bench/run.mjs [--runs 20] [--users 100000] [--records 100000] [--seconds 5]
//                      [--only startup,cdp,paging,emulator,wait,engine,library] [--before DIR] [--cdp PATH]
//
// --cdp PATH: the official Python CLI (default $CDP_REFCLI, else ../shared/refcli/cdp; see
// ../shared/refcli/NOTES.md). The cdp group times the same signed call, the same help and the same
// listing of 20,000 users through it and through cdpctl in turns (and through --before's build too).
//
// --before DIR: a built checkout of an earlier commit (the one an issue was
// filed at, say). The engine group then also measures that build's emulator
// start-up and its getUser throughput in the same run, alternating with this
// build's, so that a target stated against "today's" figure is checked on
// this machine rather than against a number from another one.
//
// Every node process runs without NODE_EXTRA_CA_CERTS or NODE_OPTIONS (a
// user's machine has neither; the CA variable alone adds ~80 ms per start).
// Writes the table to stdout and to bench/results/last.md (+ last.json).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { seedUsers } from './seed.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'run.js');
const NODE = process.execPath;
const { values: opt } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    users: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '5' },
    only: { type: 'string', default: 'startup,cdp,paging,emulator,wait,engine,library' },
    records: { type: 'string', default: '100000' },
    before: { type: 'string' },
    cdp: { type: 'string' },
  },
});
const RUNS = Number(opt.runs);
const USERS = Number(opt.users);
const RECORDS = Number(opt.records);
const only = new Set(opt.only.split(','));

if (!existsSync(join(ROOT, 'dist', 'command-map.js'))) {
  console.error('bench: build first (npm run build)');
  process.exit(1);
}

const home = mkdtempSync(join(tmpdir(), 'cdpctl-bench-'));
const dataDir = join(home, 'emu');
/** A user's environment: no CA bundle variable, no NODE_OPTIONS, no CDP settings of the developer. */
const env = {};
for (const [k, v] of Object.entries(process.env)) {
  if (v === undefined || /^(NODE_EXTRA_CA_CERTS|NODE_OPTIONS|CDP_|CDPCTL_|HTTPS?_PROXY|https?_proxy|FORCE_COLOR)/.test(k)) continue;
  env[k] = v;
}
env.HOME = home;
env.XDG_CACHE_HOME = join(home, '.cache');
env.NO_COLOR = '1';

/** The earlier build (--before), run with a home of its own. */
const BEFORE = opt.before ? resolve(opt.before) : undefined;
const beforeHome = join(home, 'before');
const beforeEnv = { ...env, HOME: beforeHome, XDG_CACHE_HOME: join(beforeHome, '.cache') };
const beforeCommit = BEFORE
  ? spawnSync('git', ['-C', BEFORE, 'log', '-1', '--format=%h'], { encoding: 'utf8' }).stdout.trim() || BEFORE
  : undefined;
const BEFORE_BIN = BEFORE ? join(BEFORE, 'bin', 'run.js') : undefined;
const beforeDataDir = join(beforeHome, 'emu');
function beforeCli(args) {
  return spawnSync(NODE, [BEFORE_BIN, ...args], { env: beforeEnv, encoding: 'utf8' });
}

const rows = [];
const row = (r) => {
  rows.push(r);
  process.stderr.write(`  ${r.measure}: ${r.value}${r.baseline ? `  (baseline ${r.baseline})` : ''}${r.ratio ? `  ${r.ratio}` : ''}\n`);
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => `${x.toFixed(1)} ms`;

/** The official Python CLI, where it is set up (../shared/refcli). */
const CDP = opt.cdp ?? process.env.CDP_REFCLI ?? resolve(ROOT, '..', 'shared', 'refcli', 'cdp');

function cdpctl(args, extra = {}) {
  return spawnSync(NODE, [BIN, ...args], { env, encoding: 'utf8', ...extra });
}

// ---------------------------------------------------------------- emulator

function startEmulator() {
  const r = cdpctl(['emulator', 'start', '--port', '0', '--data-dir', dataDir, '--time-scale', '1000', '--detach']);
  if (r.status !== 0) throw new Error(`emulator start failed: ${r.stderr}${r.stdout}`);
}
function stopEmulator() {
  cdpctl(['emulator', 'stop', '--data-dir', dataDir]);
}

// ---------------------------------------------------------------- cold start
/** Wall time of one process start to exit, in ms. */
function timeOnce(cmd, argv, runEnv = env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { env: runEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  const t = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return t;
}

function startup() {
  process.stderr.write('cold start\n');
  const signed = 'cdpctl iam users list (signed, emulator)';
  const FLOOR = 'the floor: a minimal signed call (bench/floor.cjs)';
  const helps = [
    ['cdpctl --help', ['--help']],
    ['cdpctl iam --help (service topic)', ['iam', '--help']],
    ['cdpctl iam users --help (resource topic)', ['iam', 'users', '--help']],
    ['cdpctl iam users create --help', ['iam', 'users', 'create', '--help']],
    ['cdpctl iam users list --help', ['iam', 'users', 'list', '--help']],
    ['cdpctl iam list-users help (help as the last word)', ['iam', 'list-users', 'help']],
    ['cdpctl help iam users', ['help', 'iam', 'users']],
    ['cdpctl datalake create aws --help', ['datalake', 'create', 'aws', '--help']],
  ];
  const cases = [
    ['node -e ""', NODE, ['-e', '']],
    ['cdpctl --version', NODE, [BIN, '--version']],
    ...helps.map(([name, args]) => [name, NODE, [BIN, ...args]]),
    [signed, NODE, [BIN, 'iam', 'users', 'list', '--profile', 'emulator', '--max-items', '10']],
    // The least any program can do for the same call (bench/floor.cjs): what no work of ours can go below.
    [FLOOR, NODE, [join(ROOT, 'bench', 'floor.cjs'), 'emulator']],
    ['cdpctl autocomplete bash (the script, a shell start)', NODE, [BIN, 'autocomplete', 'bash']],
    // What the script asks at each TAB (src/lib/cli/completion.ts).
    ['one TAB: cdpctl __complete bash "cdpctl iam list-u"', NODE, [BIN, '__complete', 'bash', 'cdpctl iam list-u']],
  ];
  const times = cases.map(() => []);
  for (const [, cmd, argv] of cases) timeOnce(cmd, argv); // warm the file cache
  // Round-robin, so that load from elsewhere on the machine falls on every case alike.
  for (let i = 0; i < RUNS; i++) cases.forEach(([, cmd, argv], j) => times[j].push(timeOnce(cmd, argv)));
  const base = median(times[0]);
  row({ group: 'startup', measure: `node -e "" (baseline), median of ${RUNS}`, value: ms(base) });
  const targets = { 'cdpctl --version': 2.5, [signed]: 1.5, ...Object.fromEntries(helps.map(([name]) => [name, 2.5])) };
  cases.slice(1).forEach(([name], j) => {
    const m = median(times[j + 1]);
    const ratio = m / base;
    const target = targets[name];
    row({
      group: 'startup',
      measure: `${name}, median of ${RUNS}`,
      value: ms(m),
      baseline: ms(base),
      ratio: `${ratio.toFixed(2)}x`,
      target: target ? `<= ${target}x` : '',
      met: target ? (ratio <= target ? 'yes' : 'no') : '',
    });
  });
  const at = (name) => median(times[cases.findIndex(([n]) => n === name)]);
  row({
    group: 'startup',
    measure: `${signed} over the floor, medians of ${RUNS}`,
    value: ms(at(signed) - at(FLOOR)),
    baseline: ms(at(FLOOR)),
    ratio: `${(at(signed) / at(FLOOR)).toFixed(2)}x`,
  });
}

// ---------------------------------------------------------------- paging
/** Lists every user; counts items as they stream past and reads peak RSS from /usr/bin/time. */
function listAll(format) {
  return listWith(NODE, [BIN, 'iam', 'users', 'list', '--profile', 'emulator', '--output', format, '--no-pager'], `rss-${format}`);
}

/** Runs a listing command to its end: the seeded users that streamed past, seconds, and peak RSS from /usr/bin/time. */
function listWith(cmd, args, name) {
  return new Promise((resolve, reject) => {
    const rssFile = join(home, name);
    const useTime = existsSync('/usr/bin/time');
    const child = useTime
      ? spawn('/usr/bin/time', ['-f', '%M', '-o', rssFile, cmd, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const t0 = process.hrtime.bigint();
    let items = 0;
    let tail = '';
    let stderr = '';
    // Every seeded user's first name, once per item in every format.
    const needle = 'Bench';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      const text = tail + chunk;
      for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) items++;
      tail = text.slice(-(needle.length - 1));
    });
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      if (code !== 0) return reject(new Error(`${args.slice(0, 6).join(' ')} exited ${code}: ${stderr.slice(0, 500)}`));
      const rssKb = useTime ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) : NaN;
      resolve({ items, seconds, rssMb: rssKb / 1024 });
    });
  });
}

async function paging() {
  process.stderr.write(`paging ${USERS} users\n`);
  stopEmulator();
  // Seeded users carry a recognisable id prefix; the admin is not counted.
  seedUsers(dataDir, USERS + 1);
  startEmulator();
  // The baseline: reading the same bytes through a pipe (cat of a file of the jsonl output).
  for (const format of ['jsonl', 'json', 'table']) {
    const r = await listAll(format);
    const rate = r.items / r.seconds;
    const streaming = format !== 'table';
    row({
      group: 'paging',
      measure: `iam users list --output ${format}, ${r.items} users`,
      value: `${Math.round(rate).toLocaleString('en-US')} items/s (${r.seconds.toFixed(2)} s), peak RSS ${r.rssMb.toFixed(0)} MB`,
      // A table streams too: laid out from its first page (issue 16).
      target: streaming ? '>= 20,000 items/s; < 120 MB' : '< 150 MB',
      met: (streaming ? rate >= 20_000 && r.rssMb < 120 : r.rssMb < 150) && r.items === USERS ? 'yes' : 'no',
    });
  }
}

// ---------------------------------------------------------------- against the official cdp
/** The users the cdp group lists (issue 32: 20,000, every page, --output json). */
const CDP_USERS = 20_000;

/**
 * The official CLI on the same machine, emulator and files (it reads ~/.cdp as cdpctl does): a signed
 * call, an operation's help, and a listing of 20,000 users to the end as JSON, each in turns with
 * cdpctl's (and the --before build's), beside `node -e ""`. Targets: the call within 1.5x node's start,
 * help 8x and the listing 6x faster than cdp, the listing in 2/3 of cdp's peak memory.
 */
async function versusCdp() {
  process.stderr.write('against the official cdp\n');
  const version = existsSync(CDP) ? spawnSync(CDP, ['--version'], { env, encoding: 'utf8' }) : undefined;
  if (!version || version.status !== 0) {
    row({ group: 'cdp', measure: 'the official cdp', value: `not set up at ${CDP} (see ../shared/refcli/NOTES.md): not measured` });
    return;
  }
  const cdpVersion = (version.stdout || version.stderr).trim();
  // cdp parses its YAML models into ~/.cdp/model-cache on its first run in a HOME (seconds): not counted.
  spawnSync(CDP, ['--profile', 'emulator', 'iam', 'list-users', '--max-items', '1'], { env });
  const call = ['iam', 'users', 'list', '--profile', 'emulator', '--max-items', '10'];
  const help = ['iam', 'users', 'list', '--help'];
  const cases = [
    ['node -e ""', NODE, ['-e', '']],
    ['cdpctl iam users list (signed, emulator)', NODE, [BIN, ...call]],
    ...(BEFORE ? [[`the same at ${beforeCommit} (--before)`, NODE, [BEFORE_BIN, ...call]]] : []),
    [`cdp ${cdpVersion} iam list-users (signed, emulator)`, CDP, ['--profile', 'emulator', 'iam', 'list-users', '--max-items', '10']],
    ['cdpctl iam users list --help', NODE, [BIN, ...help]],
    ...(BEFORE ? [[`the same at ${beforeCommit} (--before)`, NODE, [BEFORE_BIN, ...help]]] : []),
    [`cdp ${cdpVersion} iam list-users help`, CDP, ['iam', 'list-users', 'help']],
  ];
  const times = cases.map(() => []);
  for (const [, cmd, argv] of cases) timeOnce(cmd, argv);
  for (let i = 0; i < RUNS; i++) cases.forEach(([, cmd, argv], j) => times[j].push(timeOnce(cmd, argv)));
  const med = times.map(median);
  const base = med[0];
  const at = (prefix) => cases.findIndex(([name]) => name.startsWith(prefix));
  const showCase = (j, against, target) => {
    const m = med[j];
    const theirs = med[against];
    const ratio = `${(m / base).toFixed(2)}x node; ${(theirs / m).toFixed(1)}x faster than cdp`;
    row({ group: 'cdp', measure: `${cases[j][0]}, median of ${RUNS}`, value: ms(m), baseline: ms(base), ratio, ...target(m) });
  };
  row({ group: 'cdp', measure: `node -e "" (baseline), median of ${RUNS}`, value: ms(base) });
  const cdpCall = at('cdp ');
  const cdpHelp = cases.findIndex(([name]) => name.startsWith('cdp ') && name.endsWith(' help'));
  showCase(1, cdpCall, (m) => ({ target: '<= 1.5x node', met: m / base <= 1.5 ? 'yes' : 'no' }));
  if (BEFORE) showCase(2, cdpCall, () => ({}));
  row({
    group: 'cdp',
    measure: `${cases[cdpCall][0]}, median of ${RUNS}`,
    value: ms(med[cdpCall]),
    baseline: ms(base),
    ratio: `${(med[cdpCall] / base).toFixed(2)}x node`,
  });
  const ourHelp = at('cdpctl iam users list --help');
  showCase(ourHelp, cdpHelp, (m) => ({ target: '>= 8x faster than cdp', met: med[cdpHelp] / m >= 8 ? 'yes' : 'no' }));
  if (BEFORE) showCase(ourHelp + 1, cdpHelp, () => ({}));
  row({
    group: 'cdp',
    measure: `${cases[cdpHelp][0]}, median of ${RUNS}`,
    value: ms(med[cdpHelp]),
    baseline: ms(base),
    ratio: `${(med[cdpHelp] / base).toFixed(2)}x node`,
  });

  // Every page of 20,000 users as JSON, in turns: cdpctl, (--before,) cdp.
  stopEmulator();
  seedUsers(dataDir, CDP_USERS + 1);
  startEmulator();
  const listings = [
    ['cdpctl iam users list --output json', NODE, [BIN, 'iam', 'users', 'list', '--profile', 'emulator', '--output', 'json', '--no-pager']],
    ...(BEFORE
      ? [
          [
            `the same at ${beforeCommit} (--before)`,
            NODE,
            [BEFORE_BIN, 'iam', 'users', 'list', '--profile', 'emulator', '--output', 'json', '--no-pager'],
          ],
        ]
      : []),
    [`cdp ${cdpVersion} iam list-users --max-items 100000`, CDP, ['--profile', 'emulator', 'iam', 'list-users', '--max-items', '100000']],
  ];
  const LIST_RUNS = 5;
  const results = listings.map(() => []);
  for (let i = 0; i < LIST_RUNS; i++)
    for (const [j, [, cmd, args]] of listings.entries()) {
      const r = await listWith(cmd, args, `rss-cdp-${j}`);
      if (r.items !== CDP_USERS) throw new Error(`${listings[j][0]} listed ${r.items} of ${CDP_USERS} users`);
      results[j].push(r);
    }
  const theirs = results[results.length - 1];
  const theirSeconds = median(theirs.map((r) => r.seconds));
  const theirMb = median(theirs.map((r) => r.rssMb));
  results.forEach((rs, j) => {
    const seconds = median(rs.map((r) => r.seconds));
    const mb = median(rs.map((r) => r.rssMb));
    const mine = j < results.length - 1;
    row({
      group: 'cdp',
      measure: `${listings[j][0]}, ${CDP_USERS.toLocaleString('en-US')} users, every page, median of ${LIST_RUNS}`,
      value: `${seconds.toFixed(3)} s, peak RSS ${mb.toFixed(1)} MB`,
      ratio: mine ? `${(theirSeconds / seconds).toFixed(2)}x faster than cdp, ${((100 * mb) / theirMb).toFixed(0)}% of its peak RSS` : '',
      ...(j === 0
        ? {
            target: '>= 6x faster than cdp, <= 2/3 of its peak RSS',
            met: theirSeconds / seconds >= 6 && mb <= (2 / 3) * theirMb ? 'yes' : 'no',
          }
        : {}),
    });
  });
}

// ---------------------------------------------------------------- emulator throughput
/**
 * The CPU time (user + system, µs) the emulator process of a data directory has used: read before and after a
 * load run, it gives the emulator's own cost per request, which the other processes on a small machine (the load
 * client among them) move far less than they move req/s.
 */
function emulatorCpuUs(dir) {
  const pid = JSON.parse(readFileSync(join(dir, 'emulator.json'), 'utf8')).pid;
  // Fields 14 and 15 of /proc/<pid>/stat, counted after the command name (which may hold spaces) closes.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  clockTicks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks;
}
/** Ticks a second of /proc's CPU times, asked of getconf by the first run that reads them. */
let clockTicks;

function load(clients, seconds, path = '/iam/getUser', body = '{}', at = home, dir) {
  const cpuBefore = dir ? emulatorCpuUs(dir) : 0;
  const r = spawnSync(
    NODE,
    [
      join(ROOT, 'bench', 'load.mjs'),
      ...['--home', at, '--path', path, '--body', body, '--clients', String(clients), '--seconds', String(seconds)],
    ],
    { env, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`load client failed: ${r.stderr}`);
  const result = JSON.parse(r.stdout.trim().split('\n').pop());
  // The load client's warm-up requests are not in its count; their share of the CPU is small against a run's.
  if (dir) result.cpuUsPerRequest = (emulatorCpuUs(dir) - cpuBefore) / result.requests;
  return result;
}

function emulator() {
  process.stderr.write('emulator throughput (iam getUser, signed)\n');
  const seconds = Number(opt.seconds);
  for (const clients of [1, 16]) {
    const r = load(clients, seconds);
    const target = clients === 16;
    row({
      group: 'emulator',
      measure: `iam getUser, ${clients} signed client${clients > 1 ? 's' : ''} (keep-alive), ${seconds} s`,
      value: `${Math.round(r.rps).toLocaleString('en-US')} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ${r.errors} errors`,
      target: target ? '>= 3,000 req/s, p99 < 25 ms, 0 errors' : '0 errors',
      met: target ? (r.rps >= 3000 && r.p99 < 25 && r.errors === 0 ? 'yes' : 'no') : r.errors === 0 ? 'yes' : 'no',
    });
  }
}

// ---------------------------------------------------------------- --wait overhead
/**
 * A create --wait at a known time scale: `datalake create aws` is 10 emulated
 * minutes of work (REQUESTED 0.5 + database 3 + stack 6.5, see the datalake
 * emulator), 0.60 s at --time-scale 1000. The same create without --wait
 * shows what the process and the call cost by themselves.
 */
function waitOverhead() {
  process.stderr.write('--wait overhead\n');
  if (!existsSync(join(ROOT, 'dist', 'lib', 'emulator', 'services', 'datalake'))) {
    row({ group: 'wait', measure: '--wait overhead', value: 'not yet measurable: the emulator has no datalake service' });
    return;
  }
  const own = 600 / 1000;
  // A data lake needs an environment of its own, and the emulator refuses one
  // that does not exist: make them first (one credential, started together,
  // waited on once).
  const runs = 7;
  const lakes = 2 * runs + 1;
  const prep = (args) => {
    const r = cdpctl([...args, '--profile', 'emulator', '-o', 'json']);
    if (r.status !== 0) throw new Error(`${args.slice(0, 3).join(' ')} exited ${r.status}: ${r.stderr}`);
  };
  prep(['environments', 'credentials', 'create', 'aws', '--credential-name', 'bench', '--role-arn', 'arn:aws:iam::123456789012:role/cdp']);
  for (let i = 1; i <= lakes; i++) {
    prep([
      'environments',
      'create',
      'aws',
      '--environment-name',
      `bench-env-${i}`,
      '--credential-name',
      'bench',
      '--region',
      'us-west-2',
      '--security-access',
      'cidr=0.0.0.0/0',
      '--authentication',
      'publicKeyId=bench',
      '--log-storage',
      'storageLocationBase=s3a://bench/logs,instanceProfile=arn:aws:iam::123456789012:instance-profile/logs',
      ...(i === lakes ? ['--wait', '--poll-interval', '0.1'] : []),
    ]);
  }
  let n = 0;
  const create = (extra) => {
    n++;
    const args = [
      'datalake',
      'create',
      'aws',
      '--profile',
      'emulator',
      '--datalake-name',
      `bench-lake-${n}`,
      '--environment-name',
      `bench-env-${n}`,
      '--cloud-provider-configuration',
      'instanceProfile=arn:aws:iam::123456789012:instance-profile/dl-idbroker,storageBucketLocation=s3a://bench/lake',
      '-o',
      'json',
      ...extra,
    ];
    const t0 = process.hrtime.bigint();
    const r = cdpctl(args);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.status !== 0) throw new Error(`datalake create ${extra.join(' ')} exited ${r.status}: ${r.stderr}`);
    if (extra.includes('--wait') && !/"status": "RUNNING"/.test(r.stdout)) throw new Error('datalake create --wait did not end RUNNING');
    return s;
  };
  // Interleaved, so that load from elsewhere falls on both alike.
  const plainTimes = [];
  const fastTimes = [];
  for (let i = 0; i < runs; i++) {
    plainTimes.push(create([]));
    fastTimes.push(create(['--wait', '--poll-interval', '0.05']));
  }
  const plain = median(plainTimes);
  const fast = median(fastTimes);
  const dflt = create(['--wait']);
  row({
    group: 'wait',
    measure: `datalake create aws (no --wait): process + one call, median of ${runs}`,
    value: `${(plain * 1000).toFixed(0)} ms`,
  });
  row({
    group: 'wait',
    measure: `datalake create aws --wait --poll-interval 0.05, operation ${own.toFixed(2)} s, median of ${runs}`,
    value: `${fast.toFixed(2)} s: overhead ${((fast - own) * 1000).toFixed(0)} ms (${((fast - own - plain) * 1000).toFixed(0)} ms beyond the call without --wait)`,
  });
  row({
    group: 'wait',
    measure: `datalake create aws --wait (the model's 15 s interval, in the emulator's time), operation ${own.toFixed(2)} s`,
    value: `${dflt.toFixed(2)} s: overhead ${(dflt - own).toFixed(2)} s`,
  });
}

// ---------------------------------------------------------------- the resource engine
/** The JSON answer of a signed cdpctl call against the bench emulator. */
function callJson(args) {
  const r = cdpctl([...args, '--profile', 'emulator', '-o', 'json']);
  if (r.status !== 0) throw new Error(`${args.slice(0, 3).join(' ')} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout || '{}');
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakRssMb(pid) {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/**
 * The emulator process of a build alone, from its spawn until it says it answers (its --ready-fd line), in a
 * new data directory: what `emulator start --detach` waits for, without the command line around it (about
 * two thirds of the whole start, and the same code in both builds).
 */
function bootOnce(root, at) {
  // A home of its own: the profile it writes must not meet the bench's running emulator's.
  const dir = mkdtempSync(join(at, 'boot-'));
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn(
      NODE,
      [join(root, 'dist', 'emulator', 'main.mjs'), '--data-dir', join(dir, 'emu'), '--port', '0', '--time-scale', '60', '--ready-fd', '3'],
      { stdio: ['ignore', 'ignore', 'ignore', 'pipe'], env: { ...env, HOME: dir, XDG_CACHE_HOME: join(dir, '.cache') } },
    );
    let took;
    child.stdio[3].once('data', () => {
      took = performance.now() - t0;
      child.kill('SIGTERM');
    });
    child.on('exit', () => {
      rmSync(dir, { recursive: true, force: true });
      if (took === undefined) fail(new Error(`the emulator of ${root} exited before it answered`));
      else done(took);
    });
  });
}

/** Emulator starts timed per build (after one that warms up, left out). */
const START_RUNS = 10;
/** Rounds of the engine's throughput cases. */
const LOAD_ROUNDS = 4;

/**
 * The emulator with all 779 operations served: how long a start takes
 * (a fresh data directory, `emulator start --detach` until it answers), the
 * throughput of an operation the engine serves (dw describeVw) beside iam
 * getUser in the same run, and a listing of RECORDS records of one resource
 * (a dw cluster's diagnostic jobs, paged as the model pages them) with the
 * memory of the emulator and of the CLI.
 */
async function engine() {
  process.stderr.write('emulator start-up and the resource engine\n');
  const starts = [];
  const beforeStarts = [];
  const base = [];
  const startThis = (i) => {
    const dir = join(home, `start-${i}`);
    starts.push(timeOnce(NODE, [BIN, 'emulator', 'start', '--detach', '--port', '0', '--data-dir', dir, '--profile', `start-${i}`]));
    cdpctl(['emulator', 'stop', '--data-dir', dir]);
  };
  const startBefore = (i) => {
    const old = join(beforeHome, `start-${i}`);
    beforeStarts.push(timeOnce(NODE, [BEFORE_BIN, 'emulator', 'start', '--detach', '--port', '0', '--data-dir', old], beforeEnv));
    beforeCli(['emulator', 'stop', '--data-dir', old]);
  };
  for (let i = 0; i < START_RUNS + 1; i++) {
    base.push(timeOnce(NODE, ['-e', '']));
    // With --before, the two builds take turns going first: whichever starts second finds the page cache warmer.
    if (BEFORE && i % 2 === 1) startBefore(i);
    startThis(i);
    if (BEFORE && i % 2 === 0) startBefore(i);
  }
  const b = median(base);
  const s = median(starts.slice(1));
  const sBefore = BEFORE ? median(beforeStarts.slice(1)) : undefined;
  row({
    group: 'engine',
    measure: `emulator start --detach of a new data directory, until it answers (779 operations), median of ${START_RUNS}`,
    value: ms(s),
    baseline: ms(b),
    ratio: `${(s / b).toFixed(2)}x${sBefore ? `; ${(s / sBefore).toFixed(2)}x of ${beforeCommit}'s` : ''}`,
    ...(sBefore ? { target: `no slower than ${beforeCommit}'s`, met: s <= sBefore ? 'yes' : 'no' } : {}),
  });
  if (sBefore)
    row({
      group: 'engine',
      measure: `the same at ${beforeCommit} (--before), median of ${START_RUNS}`,
      value: ms(sBefore),
      baseline: ms(b),
      ratio: `${(sBefore / b).toFixed(2)}x`,
    });
  if (BEFORE) {
    // The emulator process alone, the two builds taking turns (whichever goes second finds the page cache warmer).
    const boots = [];
    const beforeBoots = [];
    mkdirSync(beforeHome, { recursive: true });
    for (let i = 0; i < START_RUNS + 1; i++) {
      const pair = i % 2 === 0 ? [ROOT, BEFORE] : [BEFORE, ROOT];
      for (const root of pair) (root === ROOT ? boots : beforeBoots).push(await bootOnce(root, root === ROOT ? home : beforeHome));
    }
    const boot = median(boots.slice(1));
    const bootBefore = median(beforeBoots.slice(1));
    row({
      group: 'engine',
      measure: `the emulator process alone, spawned until it answers (no command line), median of ${START_RUNS}`,
      value: `${ms(boot)}; ${beforeCommit}: ${ms(bootBefore)}`,
      baseline: ms(b),
      ratio: `${(boot / b).toFixed(2)}x; ${(boot / bootBefore).toFixed(2)}x of ${beforeCommit}'s`,
    });
  }

  // An engine operation beside getUser, in the same run.
  const env_ = callJson(['environments', 'describe', '--environment-name', 'staging-aws']).environment;
  const clusterId = callJson(['dw', 'clusters', 'create', 'aws', '--environment-crn', env_.crn, '--wait', '--poll-interval', '0.05'])
    .cluster.id;
  const dbcId = callJson(['dw', 'dbcs', 'list', '--cluster-id', clusterId]).dbcs[0].id;
  const vwId = callJson(['dw', 'vws', 'create', '--cluster-id', clusterId, '--dbc-id', dbcId, '--vw-type', 'hive', '--name', 'bench']).vwId;
  const seconds = Number(opt.seconds);
  const vwBody = JSON.stringify({ clusterId, vwId });
  const cases = {
    user: () => load(16, seconds, '/iam/getUser', '{}', home, dataDir),
    vw: () => load(16, seconds, '/api/v1/dw/describeVw', vwBody, home, dataDir),
  };
  if (BEFORE) {
    // At the time scale this build's emulator runs at (startEmulator), so that both serve the same way.
    const r = beforeCli(['emulator', 'start', '--detach', '--port', '0', '--data-dir', beforeDataDir, '--time-scale', '1000']);
    if (r.status !== 0) throw new Error(`the --before emulator did not start: ${r.stderr}`);
    cases.beforeUser = () => load(16, seconds, '/iam/getUser', '{}', beforeHome, beforeDataDir);
  }
  // LOAD_ROUNDS rounds, every other one in reverse order, so that drift on the machine falls on every case alike
  // (a 2-core machine's load moves one 5 s figure by up to ±20%; four rounds halve what that does to the mean).
  const order = Object.keys(cases);
  const runs = Object.fromEntries(order.map((k) => [k, []]));
  for (let round = 0; round < LOAD_ROUNDS; round++)
    for (const k of round % 2 === 0 ? order : [...order].reverse()) runs[k].push(cases[k]());
  if (BEFORE) beforeCli(['emulator', 'stop', '--data-dir', beforeDataDir]);
  const mean = (rs) => ({
    rps: rs.reduce((a, r) => a + r.rps, 0) / rs.length,
    p50: Math.max(...rs.map((r) => r.p50)),
    p99: Math.max(...rs.map((r) => r.p99)),
    errors: rs.reduce((a, r) => a + r.errors, 0),
    cpu: rs.reduce((a, r) => a + r.cpuUsPerRequest, 0) / rs.length,
  });
  const user = mean(runs.user);
  const vw = mean(runs.vw);
  const today = runs.beforeUser ? mean(runs.beforeUser) : undefined;
  const fmt = (r) =>
    `${Math.round(r.rps).toLocaleString('en-US')} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ${r.errors} errors; emulator CPU ${r.cpu.toFixed(0)} µs/request`;
  const each = `16 signed clients, mean of ${LOAD_ROUNDS} x ${seconds} s`;
  row({
    group: 'engine',
    measure: `iam getUser, ${each} (same run)`,
    value: fmt(user),
    ...(today
      ? {
          ratio: `${(user.rps / today.rps).toFixed(2)}x ${beforeCommit}'s req/s; ${(user.cpu / today.cpu).toFixed(2)}x its CPU per request`,
        }
      : {}),
  });
  if (today) row({ group: 'engine', measure: `iam getUser at ${beforeCommit} (--before), ${each} (same run)`, value: fmt(today) });
  // The issue's target is stated against getUser as it was before the engine: with --before it is checked against that build.
  const against = today ?? user;
  row({
    group: 'engine',
    measure: `dw describeVw (the engine), ${each}`,
    value: fmt(vw),
    ratio: `${(vw.rps / user.rps).toFixed(2)}x getUser (CPU per request ${(vw.cpu / user.cpu).toFixed(2)}x)${today ? `; ${(vw.rps / today.rps).toFixed(2)}x ${beforeCommit}'s getUser` : ''}`,
    target: `within 20% of ${today ? `${beforeCommit}'s ` : ''}getUser, 0 errors`,
    met: vw.rps >= 0.8 * against.rps && vw.errors === 0 ? 'yes' : 'no',
  });

  // RECORDS records of one resource, made through the engine's own create (in one transaction, the emulator stopped).
  stopEmulator();
  const seeded = spawnSync(
    NODE,
    [join(ROOT, 'bench', 'seed.mjs'), '--data-dir', dataDir, '--engine-records', String(RECORDS), '--cluster-id', clusterId],
    { env, encoding: 'utf8' },
  );
  if (seeded.status !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
  startEmulator();
  const emuPid = JSON.parse(readFileSync(join(dataDir, 'emulator.json'), 'utf8')).pid;
  const before = peakRssMb(emuPid);
  const rssFile = join(home, 'rss-engine');
  const t0 = process.hrtime.bigint();
  const list = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%M',
      '-o',
      rssFile,
      NODE,
      BIN,
      'dw',
      'clusters',
      'diagnostics',
      'list',
      '--cluster-id',
      clusterId,
      '--profile',
      'emulator',
      '--output',
      'jsonl',
    ],
    { env, encoding: 'utf8', maxBuffer: 1 << 30 },
  );
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  if (list.status !== 0) throw new Error(`listing failed: ${list.stderr}`);
  const items = list.stdout.split('\n').filter((l) => l.trim() !== '').length;
  const cliMb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024;
  const emuMb = peakRssMb(emuPid);
  row({
    group: 'engine',
    measure: `dw clusters diagnostics list --output jsonl, ${items.toLocaleString('en-US')} engine records (pages of 100)`,
    value: `${Math.round(items / secs).toLocaleString('en-US')} items/s (${secs.toFixed(1)} s); CLI peak RSS ${cliMb.toFixed(0)} MB; emulator peak RSS ${emuMb.toFixed(0)} MB (${before.toFixed(0)} MB before)`,
    target: 'bounded: CLI < 120 MB, emulator grows < 100 MB',
    met: items === RECORDS && cliMb < 120 && emuMb - before < 100 ? 'yes' : 'no',
  });
}

// ---------------------------------------------------------------- main
const started = Date.now();
let failed;
try {
  startEmulator();
  // Machine facts for the table's heading.
  if (only.has('startup')) startup();
  if (only.has('cdp')) await versusCdp();
  if (only.has('emulator')) emulator();
  if (only.has('wait')) waitOverhead();
  if (only.has('paging')) await paging();
  if (only.has('engine')) await engine();
  if (only.has('library')) for (const r of await (await import('./library.mjs')).libraryRows()) row(r);
} catch (err) {
  failed = err;
} finally {
  stopEmulator();
  // The earlier build's, if a failure left it running (stopping a stopped one does nothing).
  if (BEFORE) beforeCli(['emulator', 'stop', '--data-dir', beforeDataDir]);
  rmSync(home, { recursive: true, force: true });
}
if (failed) {
  console.error(`bench: ${failed.stack ?? failed}`);
  process.exit(1);
}

const head = `cdpctl benchmarks, ${new Date().toISOString().slice(0, 16)}Z, node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${((Date.now() - started) / 1000).toFixed(0)} s`;
const lines = [
  head,
  '',
  '| Measure | Result | Baseline (same run) | Ratio | Target | Met |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.measure} | ${r.value} | ${r.baseline ?? ''} | ${r.ratio ?? ''} | ${r.target ?? ''} | ${r.met ?? ''} |`),
];
const table = lines.join('\n') + '\n';
process.stdout.write(table);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'last.md'), table);
writeFileSync(join(ROOT, 'bench', 'results', 'last.json'), JSON.stringify({ head, rows }, null, 2) + '\n');
