#!/usr/bin/env node
// Seeds users fast: straight into a stopped emulator's state.db, in the
// document format iam writes (kind iam.user, an engine record, plus the
// workload-username claim createUser makes); and records of the
// resource engine through its own create.
//
//   node bench/seed.mjs --data-dir DIR --users 100000   (the emulator must be stopped)
//   node bench/seed.mjs --data-dir DIR --engine-records 100000 --cluster-id ID
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Makes the account hold `count` users (the admin included), adding numbered ones. */
export function seedUsers(dataDir, count) {
  const require = createRequire(join(ROOT, 'package.json'));
  const Database = require('better-sqlite3');
  const db = new Database(join(dataDir, 'state.db'));
  const account = db.prepare("SELECT value FROM meta WHERE key = 'accountId'").get().value;
  const have = db.prepare("SELECT count(*) AS n FROM docs WHERE kind = 'iam.user' AND account = ?").get(account).n;
  // The admin's record (an engine record of iam's user resource) is the template of the others.
  const admin = JSON.parse(
    db.prepare("SELECT body FROM docs WHERE kind = 'iam.user' AND account = ? ORDER BY seq LIMIT 1").get(account).body,
  );
  const region = admin.crn.split(':')[3];
  const idp = admin.doc.identityProviderCrn;
  const put = db.prepare('INSERT INTO docs (kind, id, account, name_lc, crn, parent, body) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const now = new Date().toISOString();
  db.transaction(() => {
    for (let i = have; i < count; i++) {
      const hex = i.toString(16).padStart(12, '0');
      const userId = `00000000-0000-4000-8000-${hex}`;
      const crn = `crn:altus:iam:${region}:${account}:user:${userId}`;
      const login = `bench${i}`;
      // Found by its identity at its provider, as createUser names it.
      const name = `${Buffer.from(login).toString('hex')}|${idp}`;
      const doc = {
        userId,
        crn,
        email: `${login}@example.com`,
        firstName: 'Bench',
        lastName: `User ${i}`,
        creationDate: now,
        accountAdmin: false,
        identityProviderCrn: idp,
        status: 'ACTIVE',
        workloadUsername: login,
      };
      const user = { ...admin, id: userId, name, crn, doc, data: { request: { identityProviderUserId: login } } };
      put.run('iam.user', userId, account, name.toLowerCase(), crn, '', JSON.stringify(user));
      put.run('iam.workloadUsername', login, account, null, null, null, JSON.stringify({ owner: crn }));
    }
  })();
  db.close();
  return count;
}

/**
 * Makes `count` diagnostic jobs of a dw cluster through the resource engine's
 * own create (the emulator's dispatch, request checks included), in one
 * transaction: the records a listing of the engine pages through.
 */
export async function seedEngineRecords(dataDir, count, clusterId) {
  const { Emulator } = await import(new URL('../dist/lib/emulator/server.js', import.meta.url).href);
  const emu = new Emulator({ dataDir, requestLog: false });
  await emu.start();
  try {
    emu.setAccount(emu.store.meta('accountId') ?? '');
    // One job made through the engine's own create; the rest are copies of its stored row under new ids
    // (made one by one, 100,000 creates take minutes; the listing is what is measured).
    const made = emu.call('dw', 'createClusterDiagnosticDataJob', { clusterId, destination: 'DOWNLOAD', force: true });
    const jobId = String(made.jobId ?? made.id ?? '');
    const db = emu.store.db;
    const row = db
      .prepare(
        'SELECT kind, id, account, name_lc, crn, parent, body FROM docs WHERE id = ? OR instr(body, ?) > 0 ORDER BY seq DESC LIMIT 1',
      )
      .get(jobId, jobId);
    if (!row) throw new Error(`the made job ${jobId} is not in the store`);
    const insert = db.prepare('INSERT INTO docs (kind, id, account, name_lc, crn, parent, body) VALUES (?, ?, ?, ?, ?, ?, ?)');
    emu.store.transaction(() => {
      for (let i = 1; i < count; i++) {
        const id = `${row.id}-${i}`;
        const swap = (s) => (s === null ? null : s.split(row.id).join(id));
        insert.run(row.kind, id, row.account, swap(row.name_lc), swap(row.crn), row.parent, swap(row.body));
      }
    });
  } finally {
    await emu.stop();
  }
  return count;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      users: { type: 'string' },
      'engine-records': { type: 'string' },
      'cluster-id': { type: 'string' },
    },
  });
  if (!values['data-dir']) throw new Error('--data-dir is required');
  if (values['engine-records']) {
    await seedEngineRecords(values['data-dir'], Number(values['engine-records']), values['cluster-id']);
    console.log(`${values['engine-records']} dw diagnostic jobs in ${values['data-dir']}`);
  } else {
    seedUsers(values['data-dir'], Number(values.users ?? 100000));
    console.log(`${values.users ?? 100000} users in ${values['data-dir']}`);
  }
}
