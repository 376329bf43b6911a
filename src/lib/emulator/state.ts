/**
 * The emulator's whole state as one file, and the format of the state it
 * keeps. `cdpctl emulator export` writes every service's documents, the
 * store's meta entries, the clock, and the uploaded files documents refer
 * to; `import` replaces a data directory's state with such a file in one
 * transaction. The admin token lives in the pid file, never in the state, so
 * an export never carries it. Private keys are never stored (only public
 * keys and hashes), so an export has none either.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { READ_LIMITS } from '../core/bounded-read.js';
import { deeperThan, printable } from '../core/validate.js';
import type { ClockState } from './clock.js';
import { isPlainDir, privateSubdir, writePrivateFile } from './data-dir.js';
import type { RawDoc, Store } from './store.js';
import { isUploadName, readUpload, STORED_AT, UPLOADS, uploadsDir } from './uploads.js';

/**
 * The layout of stored documents. 2: long-running work is kept as lifecycle
 * activities (lifecycle.ts). 3: compute's clusters and operations are
 * records of the resource engine (engine/records.ts). A store of an older
 * format is read as it is when it holds no documents of the kinds whose
 * layout changed since (CHANGED_IN); else it is refused.
 */
export const STATE_FORMAT = 8;
const CHANGED_IN: Readonly<Record<number, readonly string[]>> = {
  2: [
    'datalake.datalake',
    'datalake.operation',
    'datalake.backup',
    'datalake.restore',
    'datalake.diagnostics',
    'compute.cluster',
    'compute.operation',
    'cloudprivatelinks.work',
    'dfworkload.deployment',
    'dfworkload.flow',
    'dfworkload.flowDraft',
    'lakehouseopt.task',
  ],
  3: ['compute.cluster', 'compute.operation'],
  // Format 4 (issue 29's moves onto the operation table): audit's tasks, batches, runs and configuration
  // (its events did not change); cloudprivatelinks' networks, their endpoint work and authorizations;
  // datacatalog's shares, external users, tag reviews and profilers; lakehouseopt's policies, tables and tasks.
  4: [
    'audit.task',
    'audit.batch',
    'audit.run',
    'audit.config',
    'cloudprivatelinks.work',
    'cloudprivatelinks.network',
    'cloudprivatelinks.access',
    'datacatalog.share',
    'datacatalog.externalUser',
    'datacatalog.tagReview',
    'datacatalog.profilers',
    'lakehouseopt.policy',
    'lakehouseopt.table',
    'lakehouseopt.task',
  ],
  // Format 5 (issue 29's second fan-out): ml's backups keep what finds them (their workbench's name and
  // environment) with their request, and a restored workbench its static subdomain; dfworkload's custom NAR and
  // Python configurations and its inbound connection endpoints are engine records (dfworkload.customNarConfiguration,
  // .customPythonConfiguration, .inboundConnectionEndpoint); datalake's lakes, backups and restores are
  // engine records, its diagnostics collections work beside a lake; dw's clusters keep the name the fail- rule
  // reads in their data; df's services are engine records, and its projects and diagnostics live in them (by the
  // service's id, not its CRN); environments' proxy configurations are the table's records, under a kind of their own.
  5: [
    'ml.workspace',
    'ml.workspaceBackup',
    'dfworkload.narConfig',
    'dfworkload.pythonConfig',
    'dfworkload.inboundEndpoint',
    'datalake.datalake',
    'datalake.backup',
    'datalake.restore',
    'datalake.diagnostics',
    'dw.cluster',
    'df.service',
    'df.project',
    'df.diagnostics',
    'environments.proxyconfig',
    'environments.proxyConfig',
  ],
  // Format 6 (issue 29's third fan-out): kinds that became engine records (their document beside the engine's
  // bookkeeping): dfworkload's parameter groups, reporting tasks, flow drafts and asset update requests (the last were
  // dfworkload.assetRequest); environments' credentials, account settings and ID Broker mappings; datahub's clusters,
  // their maintenance and operation records; lakehouseopt's tables; iam's SAML providers, SCIM tokens, SSH keys, groups,
  // access keys, machine users, LDAP providers and account settings. datacatalog's data shares keep their users' access
  // as `externalUsers`; drscp's backups keep the state they hold beside them (no drscp.snapshot kind).
  6: [
    'dfworkload.parameterGroup',
    'dfworkload.reportingTask',
    'dfworkload.flowDraft',
    'dfworkload.assetRequest',
    'environments.credential',
    'environments.account',
    'environments.idbroker',
    'datacatalog.dataShare',
    'drscp.backup',
    'drscp.snapshot',
    'lakehouseopt.table',
    'datahub.cluster',
    'datahub.work',
    'datahub.operation',
    'iam.samlProvider',
    'iam.scimToken',
    'iam.sshKey',
    'iam.group',
    'iam.accessKey',
    'iam.machineUser',
    'iam.ldapProvider',
    'iam.account',
  ],
  // Format 7 (issue 29's fourth fan-out): iam's users are engine records (their identity at a provider is their
  // name; memberships, role assignments and workload passwords are kept in the records they belong to); df's
  // Kubernetes access grants are records of their own; dfworkload's deployments, deployed flows (now
  // dfworkload.deployedFlow, each in its deployment) and archives, environments, and Data Hub clusters are engine
  // records; dw's server settings are one record an account; environments' operation records are kept under the
  // environment's id.
  // Format 7 (issue 29's fourth fan-out): datahub's clusters keep why each scaling ran beside them (by its start), not
  // in their document by operation id.
  7: [
    'iam.user',
    'iam.identity',
    'iam.membership',
    'iam.roleAssignment',
    'iam.resourceAssignment',
    'iam.workloadPassword',
    'df.service',
    'dfworkload.deployment',
    'dfworkload.flow',
    'dfworkload.archive',
    'dw.serverSettings',
    'environments.environment',
    'environments.operation',
    'datahub.cluster',
  ],
  // Format 8: an environment's FreeIPA is a part of its document, and its kind holds FreeIPA's work (engine records).
  8: ['environments.freeipa'],
};

export class StateError extends Error {}

/** The kinds whose stored layout changed since a format. */
const changedSince = (format: number): string[] => [
  ...new Set(Object.entries(CHANGED_IN).flatMap(([f, kinds]) => (Number(f) > format ? kinds : []))),
];

/** Marks a store's format, or refuses state this emulator cannot read (written by an older or newer cdpctl). */
export function checkStateFormat(store: Store, dataDir: string): void {
  const have = store.meta('stateFormat');
  if (have === String(STATE_FORMAT)) return;
  const from = have === undefined ? 1 : Number(have);
  if (from < STATE_FORMAT && store.countKinds(changedSince(from)) === 0) {
    store.setMeta('stateFormat', String(STATE_FORMAT));
    return;
  }
  const by = from < STATE_FORMAT ? 'an older' : 'a newer';
  throw new StateError(
    `the emulator state in ${dataDir} was written by ${by} cdpctl (state format ${have ?? 1}; this one reads ${STATE_FORMAT}); ` +
      `start with another --data-dir, or delete it with: cdpctl emulator reset --data-dir ${dataDir}`,
  );
}

// ---- the clock in the store ----------------------------------------------------

const CLOCK = 'clock';
const PAUSED = 'clock.paused';

export function loadClock(store: Store): Partial<ClockState> {
  const now = Number(store.meta(CLOCK));
  return { now: Number.isFinite(now) && now > 0 ? now : undefined, paused: store.meta(PAUSED) === '1' };
}

export function saveClock(store: Store, c: ClockState): void {
  store.setMeta(CLOCK, String(Math.round(c.now)));
  store.setMeta(PAUSED, c.paused ? '1' : '0');
}

/** Saves only the time reached (every mutating request does; cheap). */
export function saveClockTime(store: Store, now: number): void {
  store.setMeta(CLOCK, String(Math.round(now)));
}

// ---- export and import ---------------------------------------------------------

const FORMAT = 'cdpctl-emulator-state';
/** What stands for the uploads directory in exported documents. */
const UPLOADS_MARK = 'cdpctl-emulator-uploads:';

export interface StateFile {
  readonly format: typeof FORMAT;
  readonly version: 1;
  readonly stateFormat: number;
  readonly exportedAt: string;
  readonly accountId?: string;
  readonly clock: { readonly now: string; readonly nowMs: number; readonly paused: boolean };
  readonly meta: Readonly<Record<string, string>>;
  readonly documents: ReadonlyArray<Omit<RawDoc, 'body'> & { readonly body: unknown }>;
  /** Uploaded files the documents refer to: file name -> base64. */
  readonly uploads: Readonly<Record<string, string>>;
}

/** JSON text of a path as it appears inside JSON text. */
const inJson = (s: string): string => JSON.stringify(s).slice(1, -1);

/** The whole state of a store (and the files its documents refer to). */
export function exportState(store: Store, dataDir: string, clock: ClockState): StateFile {
  const { docs, meta } = store.dump();
  const dir = inJson(`${join(dataDir, UPLOADS)}/`);
  const uploads: Record<string, string> = {};
  const documents = docs.map((d) => {
    let body = d.body;
    if (body.includes(dir)) {
      for (const m of body.matchAll(new RegExp(`${escapeRe(dir)}([A-Za-z0-9._-]+)`, 'g'))) {
        const name = m[1] ?? '';
        if (name in uploads) continue;
        // By the one rule for stored paths (uploads.ts): a plain name, never through a link.
        const bytes = readUpload(dataDir, join(dataDir, UPLOADS, name), READ_LIMITS.state);
        if (bytes) uploads[name] = bytes.toString('base64');
      }
      body = body.split(dir).join(UPLOADS_MARK);
    }
    return { ...d, body: JSON.parse(body) as unknown };
  });
  const { [CLOCK]: _c, [PAUSED]: _p, ...rest } = meta;
  return {
    format: FORMAT,
    version: 1,
    stateFormat: STATE_FORMAT,
    exportedAt: new Date().toISOString(),
    ...(meta.accountId ? { accountId: meta.accountId } : {}),
    clock: { now: new Date(clock.now).toISOString(), nowMs: Math.round(clock.now), paused: clock.paused },
    meta: rest,
    documents,
    uploads,
  };
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads an export, or says what is wrong with it. */
export function parseStateFile(text: string, where: string): StateFile {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new StateError(`${where} is not JSON: ${(e as Error).message}`);
  }
  if (!isObj(v) || v.format !== FORMAT)
    throw new StateError(
      `${where} is not an emulator state export (it has no "format": "${FORMAT}"); make one with: cdpctl emulator export`,
    );
  if (v.version !== 1) throw new StateError(`${where} is an export of version ${String(v.version)}; this cdpctl reads version 1`);
  // An export of an older format is read as it is when it holds no documents of the kinds whose layout changed since.
  const older = typeof v.stateFormat === 'number' && v.stateFormat >= 2 && v.stateFormat < STATE_FORMAT;
  const readable = (d: unknown): boolean => !(isObj(d) && changedSince(Number(v.stateFormat)).includes(String(d.kind)));
  if (v.stateFormat !== STATE_FORMAT && !(older && Array.isArray(v.documents) && v.documents.every(readable)))
    throw new StateError(`${where} holds state format ${String(v.stateFormat)}; this cdpctl reads state format ${STATE_FORMAT}`);
  const clock = v.clock;
  if (!isObj(clock) || typeof clock.nowMs !== 'number' || typeof clock.paused !== 'boolean')
    throw new StateError(`${where}: "clock" must hold nowMs (a number) and paused (true or false)`);
  if (!isObj(v.meta) || !Object.values(v.meta).every((x) => typeof x === 'string'))
    throw new StateError(`${where}: "meta" must map names to strings`);
  if (!Array.isArray(v.documents)) throw new StateError(`${where}: "documents" must be a list`);
  v.documents.forEach((d: unknown, i: number) => {
    const ok =
      isObj(d) &&
      typeof d.kind === 'string' &&
      typeof d.id === 'string' &&
      typeof d.account === 'string' &&
      ['name', 'crn', 'parent'].every((k) => d[k] === null || typeof d[k] === 'string') &&
      d.body !== undefined;
    if (!ok)
      throw new StateError(
        `${where}: document ${i + 1} needs kind, id and account (strings), name, crn and parent (string or null) and a body`,
      );
  });
  checkDocuments(v.documents as StateFile['documents'], where);
  if (!isObj(v.uploads) || !Object.entries(v.uploads).every(([k, x]) => isUploadName(k) && typeof x === 'string'))
    throw new StateError(`${where}: "uploads" must map plain file names (letters, digits, ".", "_", "-"; not "." or "..") to base64 text`);
  return v as unknown as StateFile;
}

/** How deep a stored document may nest: far more than any service's records, and little enough for every walk over it. */
export const MAX_DOCUMENT_DEPTH = 64;

/**
 * What the store and the services need of an export's documents: each
 * (kind, id) and each CRN once, bodies nested no deeper than
 * MAX_DOCUMENT_DEPTH, and every stored file named as an upload of the
 * export (uploads.ts), never as a path of its own.
 */
function checkDocuments(documents: StateFile['documents'], where: string): void {
  const ids = new Set<string>();
  const crns = new Set<string>();
  documents.forEach((d, i) => {
    const which = `document ${i + 1} (${printable(d.kind, 60)} ${printable(d.id, 80)})`;
    const key = `${d.kind}\u0000${d.id}`;
    if (ids.has(key)) throw new StateError(`${where}: ${which} comes twice; an export holds each document once`);
    ids.add(key);
    if (d.crn !== null) {
      if (crns.has(d.crn))
        throw new StateError(`${where}: ${which} has the CRN ${printable(d.crn, 120)} of an earlier document; a CRN names one document`);
      crns.add(d.crn);
    }
    if (deeperThan(d.body, MAX_DOCUMENT_DEPTH))
      throw new StateError(`${where}: ${which} is nested more than ${MAX_DOCUMENT_DEPTH} levels deep`);
    for (const stored of storedPaths(d.body)) {
      const name = typeof stored === 'string' && stored.startsWith(UPLOADS_MARK) ? stored.slice(UPLOADS_MARK.length) : undefined;
      if (name === undefined || !isUploadName(name))
        throw new StateError(
          `${where}: ${which} keeps a file at ${typeof stored === 'string' ? `"${printable(stored, 120)}"` : 'a value that is no path'}; an export names a stored file only as "${UPLOADS_MARK}<plain name>"`,
        );
    }
  });
}

/** Every value a document keeps under the stored-file field, at any depth. */
function storedPaths(body: unknown): unknown[] {
  const found: unknown[] = [];
  const todo: unknown[] = [body];
  while (todo.length > 0) {
    const v = todo.pop();
    if (typeof v !== 'object' || v === null) continue;
    for (const [k, x] of Object.entries(v)) {
      if (k === STORED_AT && !Array.isArray(v)) found.push(x);
      else todo.push(x);
    }
  }
  return found;
}

/** Replaces a store's state with an export's, all or nothing; returns the clock it had. */
export function importState(store: Store, dataDir: string, file: StateFile): ClockState {
  const dir = uploadsDir(dataDir);
  const names = Object.keys(file.uploads);
  // parseStateFile checked an export's names; a state made otherwise (a drscp backup kept in the store) is checked here, where files are written.
  const bad = names.find((n) => !isUploadName(n));
  if (bad !== undefined) throw new StateError(`"${printable(bad, 60)}" is no plain file name for the uploads directory`);
  if (names.length > 0) privateSubdir(dir);
  // Files first: should the transaction fail, they are only unreferenced copies. Each replaces what has its name (a link too), never written through.
  for (const [name, data] of Object.entries(file.uploads)) writePrivateFile(join(dir, name), Buffer.from(data, 'base64'));
  const mark = inJson(`${dir}/`);
  const docs: RawDoc[] = file.documents.map((d) => ({ ...d, body: JSON.stringify(d.body).split(UPLOADS_MARK).join(mark) }));
  const clock: ClockState = { now: file.clock.nowMs, paused: file.clock.paused };
  store.restore({
    docs,
    meta: { ...file.meta, stateFormat: String(STATE_FORMAT), [CLOCK]: String(clock.now), [PAUSED]: clock.paused ? '1' : '0' },
  });
  // Uploads no document refers to any more go.
  // Only in the data directory's own uploads directory, never in one a link leads to.
  if (isPlainDir(dir))
    for (const f of readdirSync(dir)) if (!names.includes(f) && !referenced(store, `${mark}${f}`)) rmSync(join(dir, f), { force: true });
  return clock;
}

function referenced(store: Store, text: string): boolean {
  return store.db.prepare('SELECT 1 FROM docs WHERE instr(body, ?) > 0 LIMIT 1').get(text) !== undefined;
}
