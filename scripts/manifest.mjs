#!/usr/bin/env node
// Build step: writes oclif.manifest.json from fully described command classes
// (every operation of the model with its flags), .oclifrc.json (oclif's
// configuration, below, with the topic list from the model), dist/help-index.json, the compact list of
// topics and commands that the root and topic help read (src/lib/cli/help.ts),
// so that help and completion never load every model, and dist/help/<topic>.json, every service's help pages as a
// pipe gets them (help.ts helpBook), which bin/run.js prints without loading the fast path.
//
//   node scripts/manifest.mjs                write all three
//   node scripts/manifest.mjs --help-index   print the help index only (a test compares it with the build's)
import { mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const printIndexOnly = process.argv.includes('--help-index');
process.env.CDPCTL_DESCRIBE_COMMANDS = '1';
process.env.OCLIF_SKIP_NEW_VERSION_CHECK = 'true';
const imp = (p) => import(pathToFileURL(join(root, 'dist', p)).href);

// oclif's configuration. The file is made here at every build and never tracked (like the manifest), so what
// oclif reads is always what this build's model says; its topics are written below.
const OCLIF_CONFIG = {
  bin: 'cdpctl',
  dirname: 'cdpctl',
  topicSeparator: ' ',
  commands: { strategy: 'explicit', target: './dist/command-map.js', identifier: 'COMMANDS' },
  plugins: ['@oclif/plugin-help'],
  helpClass: './dist/lib/cli/oclif-help.js',
  additionalHelpFlags: ['-h'],
  hooks: { command_not_found: './dist/hooks/command-not-found.js' },
};

// Topics first: oclif reads them from .oclifrc.json.
const { loadAllServices } = await imp('lib/model/index.js');
const { buildHelpIndex, HELP_INDEX_PATH } = await imp('lib/cli/help.js');
const rcPath = join(root, '.oclifrc.json');
const topics = {
  api: { description: 'Call any operation with a raw request document.' },
  auth: { description: 'Sign-in state of a profile: who its key signs as, and whether it works.' },
  configure: { description: 'Credential profiles, in the files the official CLI uses.' },
  emulator: { description: 'A local control plane for trying and testing cdpctl offline.' },
};
const services = await loadAllServices();
for (const svc of services) {
  topics[svc.topic] = { description: svc.def.summary };
  for (const [name, description] of Object.entries(svc.def.topics)) topics[`${svc.topic}:${name}`] = { description };
}

// Written before oclif loads its configuration from it (a clean checkout has none yet).
writeFileSync(rcPath, JSON.stringify({ ...OCLIF_CONFIG, topics }, null, 2) + '\n');

// Every command oclif knows (cdpctl's own, the plugins', the model's), cdpctl's read from the classes, never from
// the manifest an earlier build wrote: Config.load reads the root plugin's oclif.manifest.json whenever there is one
// (its ignoreManifest does not reach the root plugin), so cdpctl's commands come from a plugin loaded without it.
const { Config, Plugin } = await import('@oclif/core');
const config = await Config.load({ root });
const own = new Plugin({ root, isRoot: true, ignoreManifest: true });
await own.load();
const oclifCommands = [...own.commands, ...config.commands.filter((c) => c.pluginName !== own.name)];
const modelIds = new Set(services.flatMap((s) => s.operations().map((op) => op.commandId)));
const commands = [
  ...services.flatMap((s) =>
    s.operations().map((op) => ({
      id: op.commandId,
      summary: op.cli.summary,
      hidden: Boolean(op.cli.hidden || op.wire.deprecated),
      own: false,
    })),
  ),
  ...oclifCommands
    .map((c) => ({ ...c, id: c.id.replace(/:/g, ' ') }))
    .filter((c) => !modelIds.has(c.id))
    .map((c) => ({
      id: c.id,
      summary: (c.summary ?? c.description ?? '').split('\n')[0].replace(/<%= config.bin %>/g, config.bin),
      hidden: Boolean(c.hidden),
      own: true,
      // For completion: each visible flag's fixed values ([] for any value), null for a switch.
      flags: Object.fromEntries(
        Object.entries(c.flags ?? {})
          .filter(([, f]) => !f.hidden)
          .map(([name, f]) => [name, f.type === 'option' ? (f.options ?? []) : null]),
      ),
    })),
];
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const index = buildHelpIndex(
  pkg,
  commands,
  Object.fromEntries(Object.entries(topics).map(([id, t]) => [id.replace(/:/g, ' '), t.description])),
);
const indexText = JSON.stringify(index) + '\n';
if (printIndexOnly) {
  process.stdout.write(indexText);
  process.exit(0);
}
writeFileSync(join(root, HELP_INDEX_PATH), indexText);

// Every service's help pages at the width of a pipe (helpBook), which bin/run.js prints without loading the fast path.
const { helpBook, HELP_PAGES_DIR, HELP_PAGE_WIDTH } = await imp('lib/cli/help.js');
const pagesDir = join(root, HELP_PAGES_DIR);
rmSync(pagesDir, { recursive: true, force: true });
mkdirSync(pagesDir, { recursive: true });
const pageContext = { bin: 'cdpctl', width: HELP_PAGE_WIDTH, index: () => index };
for (const svc of services) writeFileSync(join(pagesDir, `${svc.topic}.json`), JSON.stringify(await helpBook(svc, pageContext)));

rmSync(join(root, 'oclif.manifest.json'), { force: true });
const manifest = own.manifest;
writeFileSync(join(root, 'oclif.manifest.json'), JSON.stringify(manifest));
console.log(`manifest: ${Object.keys(manifest.commands).length} commands; help index: ${Object.keys(index.commands).length} listed`);
