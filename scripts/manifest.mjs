#!/usr/bin/env node
// Build step: writes oclif.manifest.json from fully described command classes
// (every operation of the model with its flags), and the topic list of
// .oclifrc.json from the model, so help and completion never load models.
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.env.CDPCTL_DESCRIBE_COMMANDS = '1';
process.env.OCLIF_SKIP_NEW_VERSION_CHECK = 'true';

// Topics first: oclif reads them from .oclifrc.json.
const { loadAllServices } = await import(join(root, 'dist/lib/model/index.js'));
const rcPath = join(root, '.oclifrc.json');
const rc = JSON.parse(readFileSync(rcPath, 'utf8'));
const topics = {
  api: { description: 'Call any operation with a raw request document.' },
  auth: { description: 'Sign-in state of a profile: who its key signs as, and whether it works.' },
  configure: { description: 'Credential profiles, in the files the official CLI uses.' },
  emulator: { description: 'A local control plane for trying and testing cdpctl offline.' },
};
for (const svc of await loadAllServices()) {
  topics[svc.topic] = { description: svc.def.summary };
  for (const [name, description] of Object.entries(svc.def.topics)) topics[`${svc.topic}:${name}`] = { description };
}
rc.topics = topics;
// Written as prettier writes it, so that `npm run lint` stays clean after a build.
let rcText = JSON.stringify(rc, null, 2) + '\n';
try {
  const prettier = await import('prettier');
  rcText = await prettier.format(rcText, { ...(await prettier.resolveConfig(rcPath)), filepath: rcPath });
} catch {
  // prettier is a dev dependency; without it the plain JSON serves.
}
writeFileSync(rcPath, rcText);

rmSync(join(root, 'oclif.manifest.json'), { force: true });
const { Config } = await import('@oclif/core');
const config = await Config.load({ root });
const plugin = config.plugins.get(config.pjson.name);
const manifest = plugin.manifest;
writeFileSync(join(root, 'oclif.manifest.json'), JSON.stringify(manifest));
console.log(`manifest: ${Object.keys(manifest.commands).length} commands`);
