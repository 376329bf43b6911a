/**
 * The flow catalog of an account, on the resource engine: flow definitions
 * (`flow`), their versions (`flowVersion`, CRN `<flow CRN>/v.<n>`), the tags
 * of a version (`flowVersionTag`, unique in their version) and collections
 * that group flow definitions (`catalogCollection`). A flow definition is
 * imported from a NiFi flow definition file (the file comes to the address
 * the import is redirected to, see index.ts), or added from a ReadyFlow
 * (readyflows.ts) with all its versions. A flow definition's CRN carries its
 * name (a ReadyFlow's, its slug), as deployments name the flow they run, and
 * its kind as its resource type: `flow` for the account's own, `readyFlow`
 * for one added from a ReadyFlow (cdpy checks an added ReadyFlow's CRN for
 * `readyFlow`; its versions are `<CRN>/v.<n>` either way).
 *
 * Rules: names are unique in the catalog (flows, and collections); a flow
 * definition a deployment runs cannot be deleted; a collection is deleted
 * only empty; a ReadyFlow gets no versions of the account's own. What the
 * records say of each other (versions and tags of a flow, the flows of a
 * collection, how many deployments run a version) is computed as they are
 * read.
 */
import { readFileSync } from 'node:fs';
import type { Hook as TableHook } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { crn, uuid } from '../../ids.js';
import { readUpload, removeUpload } from '../../uploads.js';
import type { Doc, RequestContext } from '../../types.js';
import { docs, num, str, text } from '../../values.js';
import { recordsIn, userNameOf, type R, type Rec } from './services.js';
import { searched, sorted } from './listing.js';
import { READYFLOWS, publishedAt, readyflowCrn, readyflowDefinition, type ReadyFlow } from './readyflows.js';

type Hook = TableHook<R>;

/** The largest flow definition file the catalog takes. */
const MAX_DEFINITION_BYTES = 20 * 1024 * 1024;
const TAG_COLOR = /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/;

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a flow definition keeps beside its document. */
interface FlowData {
  /** The ReadyFlow it was added from (its slug). */
  readyflow?: string;
  /** The bucket its versions are in. */
  bucket: string;
}

/** Where a version's definition is: the uploaded file, or (a ReadyFlow's) the definition itself. */
interface VersionData {
  storedAt?: string;
  definition?: string;
}

const flowData = (rec: Rec): FlowData => (rec.data ?? { bucket: rec.id }) as unknown as FlowData;
const versionData = (rec: Rec): VersionData => (rec.data ?? {}) as VersionData;
const versionOf = (rec: Rec): number => num(rec.doc.version) ?? 0;

/** How many flows of deployments run each flow version (by version CRN), once a request. */
const deployedCache = new WeakMap<RequestContext, Map<string, number>>();
function deployedVersions(ctx: RequestContext): Map<string, number> {
  let counts = deployedCache.get(ctx);
  if (!counts) {
    counts = new Map();
    for (const f of ctx.world.in(ctx).dataflows.flows()) {
      const key = `${f.flowCrn}/v.${f.flowVersion}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    deployedCache.set(ctx, counts);
  }
  return counts;
}

/** A name of the catalog: text of 1 to 128 characters, without `/` or `:` (a flow's CRN carries its name). */
function catalogName(what: string, given: unknown): string {
  const name = text(given).trim();
  if (!name) throw invalid(`the ${what} needs a name`);
  if (name.length > 128) throw invalid(`a ${what} name has at most 128 characters`);
  if (/[/:\p{Cc}]/u.test(name)) throw invalid(`a ${what} name cannot hold "/", ":" or control characters; got "${name.slice(0, 128)}"`);
  return name;
}

/** A tag's name and colour: a name, and a colour (when given) as a CSS hex colour. */
function checkedTag(given: Doc): { tagName: string; tagColor?: string } {
  const tagName = text(given.tagName).trim();
  if (!tagName) throw invalid('a tag needs a tagName');
  const tagColor = str(given.tagColor);
  if (tagColor !== undefined && !TAG_COLOR.test(tagColor))
    throw invalid(`tagColor must be a hex colour like #1b75bc; got "${tagColor.slice(0, 20)}"`);
  return { tagName, ...(tagColor ? { tagColor } : {}) };
}

/** Tags as a request gives them: each checked, names unique (any case). */
function tagsOf(given: unknown): Array<{ tagName: string; tagColor?: string }> {
  const seen = new Set<string>();
  return docs(given).map((t) => {
    const tag = checkedTag(t);
    if (seen.has(tag.tagName.toLowerCase())) throw invalid(`tag ${tag.tagName} is given twice`);
    seen.add(tag.tagName.toLowerCase());
    return tag;
  });
}

/** The flow definition file of an import: uploaded, JSON, a NiFi flow definition. */
function uploadedDefinition(ctx: RequestContext): { path: string; size: number } {
  const u = ctx.upload;
  if (!u)
    throw invalid(
      'the flow definition file goes to the address this request is redirected to (as `cdpctl df flows import --file` sends it); it cannot come in the request',
    );
  if (u.size === 0) throw invalid('the flow definition file is empty');
  if (u.size > MAX_DEFINITION_BYTES) throw invalid(`the flow definition file is over ${MAX_DEFINITION_BYTES / 1024 / 1024} MiB`);
  let def: unknown;
  try {
    def = JSON.parse(readFileSync(u.path, 'utf8'));
  } catch {
    throw invalid('the flow definition is not JSON: export it from NiFi with "Download flow definition"');
  }
  if (!isObject(def) || !isObject(def.flowContents)) throw invalid('the file is not a NiFi flow definition: it has no flowContents');
  return u;
}

// ---- records ---------------------------------------------------------------------------

/** The versions of a flow definition, oldest first. */
function versionsOf(h: Hook, flow: Rec): EngineRecord[] {
  return recordsIn(h, 'flowVersion', flow.id).sort((a, b) => versionOf(a) - versionOf(b));
}

/** Adds a version to a flow definition (with its tags): the next number, by the caller, now. */
function addVersion(
  h: Hook,
  flow: EngineRecord,
  spec: { comments?: string; tags: ReadonlyArray<{ tagName: string; tagColor?: string }>; data: VersionData; author?: string; at?: number },
): EngineRecord {
  const versions = h.records('flowVersion');
  const n = 1 + Math.max(0, ...versionsOf(h, flow).map(versionOf));
  const versionCrn = `${flow.crn ?? ''}/v.${n}`;
  const at = spec.at ?? h.ctx.clock.now();
  const v = versions.create({
    id: uuid(),
    name: `v.${n}`,
    crn: versionCrn,
    scope: flow.id,
    doc: {
      crn: versionCrn,
      bucketIdentifier: flowData(flow).bucket,
      author: spec.author ?? userNameOf(h, h.ctx.caller.actorCrn),
      version: n,
      timestamp: at,
      ...(spec.comments ? { comments: spec.comments } : {}),
    },
    data: { ...spec.data },
  });
  const tags = h.records('flowVersionTag');
  for (const t of spec.tags) tags.create({ id: uuid(), name: t.tagName, scope: v.id, doc: { ...t } });
  flow.doc.modifiedTimestamp = at;
  h.records('flow').save(flow);
  return v;
}

/** A new flow definition of the catalog (its first version comes next). */
function newFlow(
  h: Hook,
  spec: { name: string; slug: string; description?: string; collectionCrn?: string; readyflow?: string },
): EngineRecord {
  const flows = h.records('flow');
  // Named by its name (a ReadyFlow's slug), as deployments name the flow they run: not the engine's UUID CRN.
  const flowCrn = crn('df', h.ctx.info.region, h.ctx.info.accountId, spec.readyflow ? 'readyFlow' : 'flow', spec.slug);
  const clash = flows.find(spec.name, '') ?? flows.find(flowCrn);
  if (clash) throw alreadyExists(`the catalog already has a flow definition named ${clash.name ?? spec.name}`);
  const now = h.ctx.clock.now();
  return flows.create({
    id: uuid(),
    name: spec.name,
    crn: flowCrn,
    scope: '',
    doc: {
      crn: flowCrn,
      name: spec.name,
      createdTimestamp: now,
      modifiedTimestamp: now,
      ...(spec.description ? { description: spec.description } : {}),
      ...(spec.collectionCrn ? { collectionCrn: spec.collectionCrn } : {}),
    },
    data: { bucket: uuid(), ...(spec.readyflow ? { readyflow: spec.readyflow } : {}) },
  });
}

/** deleteFlow (deleteAddedReadyflow too): refused while a deployment runs it; otherwise its stored files go. */
export function checkFlowDelete(h: Hook, flow: Rec): void {
  const counts = deployedVersions(h.ctx);
  const running = versionsOf(h, flow).filter((v) => (counts.get(v.crn ?? '') ?? 0) > 0);
  if (running.length > 0)
    throw failedPrecondition(
      `flow definition ${nameOf(flow)} is deployed (version ${running.map(versionOf).join(', ')}); terminate its deployments first`,
    );
  for (const v of versionsOf(h, flow)) removeUpload(h.ctx.info.dataDir, versionData(v).storedAt);
}

// ---- ReadyFlows ------------------------------------------------------------------------

/**
 * Cloudera's ReadyFlows as records of the account (resource `readyflow`,
 * named by their slug), made once by the engine's seed, so that they are
 * listed and described as the verbs list and read: what the account did
 * with each (added it) is computed as they are shown.
 */
export function seedReadyflows(h: Hook): void {
  const flag = `df.readyflows:${h.ctx.info.accountId}`;
  if (h.ctx.store.meta(flag)) return;
  const all = h.records('readyflow');
  for (const r of READYFLOWS)
    if (!all.byId(r.slug))
      // Its summary; its CRN is a field, not the record's: an added ReadyFlow's flow definition has the same one (readyflows.ts).
      all.create({
        id: r.slug,
        name: r.name,
        scope: '',
        doc: h.conform('ReadyflowSummary', { ...r, readyflowCrn: readyflowCrn(h.ctx.info, r) }, r.slug),
      });
  h.ctx.store.setMeta(flag, '1');
}

/** describeReadyflow, addReadyflow: the request as the verb reads it, the ReadyFlow named by its slug, its record's id. */
export function readyflowNamedIn(h: Hook, sent: Doc): Doc {
  const ref = text(sent.readyflowCrn);
  const r = READYFLOWS.find((x) => readyflowCrn(h.ctx.info, x) === ref);
  if (!r) throw notFound(`ready flow ${ref.slice(0, 200)} not found (see df readyflows list)`);
  return { ...sent, readyflowCrn: r.slug };
}

const readyflowOf = (rec: Rec): ReadyFlow => {
  const r = READYFLOWS.find((x) => x.slug === rec.id);
  if (!r) throw notFound(`ready flow ${rec.crn ?? rec.id} not found (see df readyflows list)`);
  return r;
};

/** The flow definition a ReadyFlow was added as, if it was. */
function addedAs(h: Hook, slug: string): EngineRecord | undefined {
  return recordsIn(h, 'flow', '').find((f) => flowData(f).readyflow === slug);
}

/** What a ReadyFlow shows of the account's catalog: whether it was added, and as what. */
export function readyflowShown(h: Hook, rec: Rec): Doc {
  const added = addedAs(h, rec.id);
  return { imported: added !== undefined, ...(added?.crn ? { importedArtifactCrn: added.crn } : {}) };
}

/** listReadyflows: those whose name or summary holds the search term. */
export const readyflowsListed = (h: Hook, req: Doc): EngineRecord[] =>
  searched(h.records('readyflow').all(''), req.searchTerm, (r) => [r.name ?? '', String(r.doc.summary ?? '')]);

/** describeReadyflow: its details (ReadyflowDetails), which its record does not keep. */
export const readyflowDetail = (h: Hook, rec: Rec): Doc => ({ readyflowDetail: readyflowDetails(h, readyflowOf(rec)) });

/** A ReadyFlow's details (ReadyflowDetails: the answers that hold them keep its fields). */
const readyflowDetails = (h: Hook, r: ReadyFlow): Doc => ({
  ...r,
  readyflowCrn: readyflowCrn(h.ctx.info, r),
  author: 'Cloudera',
  documentationLink: `https://docs.cloudera.com/dataflow/cloud/readyflow-overview/topics/cdf-readyflow-${r.slug}.html`,
  imported: addedAs(h, r.slug) !== undefined,
  modifiedTimestamp: r.modified,
});

/** The ReadyFlow a flow definition was added from, or NOT_FOUND: one of the account's own is no added ReadyFlow. */
function addedFrom(flow: Rec | undefined, ref: string): ReadyFlow {
  const readyflow = READYFLOWS.find((r) => r.slug === (flow ? flowData(flow).readyflow : undefined));
  if (!readyflow) throw notFound(`added ready flow ${ref.slice(0, 200)} not found (see importedArtifactCrn in df readyflows list)`);
  return readyflow;
}

function addedDetails(h: Hook, flow: Rec, r: ReadyFlow): Doc {
  const versions = h.records('flowVersion');
  return { addedReadyflowCrn: flow.crn, readyflow: readyflowDetails(h, r), versions: versionsOf(h, flow).map((v) => versions.view(v)) };
}

// ---- collections ----------------------------------------------------------------------

/** createCollection: the request as the verb reads it, its name checked and trimmed. */
export const collectionNamedIn = (_h: Hook, sent: Doc): Doc => ({ ...sent, name: catalogName('collection', sent.name) });

/** updateCollection: as createCollection's, when it names the collection anew. */
export const collectionRenamedIn = (h: Hook, sent: Doc): Doc => (sent.name === undefined ? sent : collectionNamedIn(h, sent));

/** The flow definitions a collection holds. */
const heldBy = (h: Hook, rec: Rec): EngineRecord[] => recordsIn(h, 'flow', '').filter((f) => f.doc.collectionCrn === rec.crn);

/** deleteCollection: only an empty one. */
export function checkCollectionDelete(h: Hook, rec: Rec): void {
  const held = heldBy(h, rec);
  if (held.length > 0)
    throw failedPrecondition(
      `collection ${nameOf(rec)} still holds ${held.map((f) => nameOf(f)).join(', ')}; move them out first (df flows set-collection)`,
    );
}

export function collectionShown(h: Hook, rec: Rec): Doc {
  const flows = h.records('flow');
  const held = heldBy(h, rec);
  return { flowSummaries: held.map((f) => flows.view(f)), flowCount: held.length };
}

export const collectionsListed = (h: Hook, req: Doc): EngineRecord[] =>
  sorted(
    searched(h.records('catalogCollection').all(''), req.searchTerm, (c) => c.name ?? ''),
    req.sorts,
    { name: (c) => (c.name ?? '').toLowerCase(), created: (c) => c.createdAt },
  );

// ---- flow definitions and their versions ------------------------------------------------

/** assignToCollection's effect: into a collection of the catalog (NOT_FOUND otherwise), or out of any. */
export const assigned = (h: Hook, _rec: Rec, req: Doc): Doc => ({
  collectionCrn: str(req.catalogCollectionCrn) ? h.records('catalogCollection').get(text(req.catalogCollectionCrn)).crn : undefined,
  modifiedTimestamp: h.ctx.clock.now(),
});

/** What a flow definition shows of its versions, its kind (`artifactType`) and its collection. */
export function flowShown(h: Hook, rec: Rec): Doc {
  const versions = h.records('flowVersion');
  const list = versionsOf(h, rec).map((v) => versions.view(v));
  const collection = str(rec.doc.collectionCrn);
  const held = collection ? h.records('catalogCollection').find(collection) : undefined;
  return {
    versions: list,
    versionCount: list.length,
    ...(list.length > 0 ? { author: list[list.length - 1]?.author } : {}),
    artifactType: flowData(rec).readyflow ? 'readyFlow' : 'flow',
    ...(held ? { collectionName: held.name } : {}),
  };
}

/** listFlowDefinitions: of a collection when one is named, by name, through sorts. */
export function flowsListed(h: Hook, req: Doc): EngineRecord[] {
  const collection = str(req.collectionCrn);
  if (collection) h.records('catalogCollection').get(collection);
  const all = recordsIn(h, 'flow', '').filter((f) => !collection || f.doc.collectionCrn === collection);
  return sorted(
    searched(all, req.searchTerm, (f) => f.name ?? ''),
    req.sorts,
    {
      name: (f) => (f.name ?? '').toLowerCase(),
      modifiedTimestamp: (f) => num(f.doc.modifiedTimestamp) ?? 0,
      createdTimestamp: (f) => num(f.doc.createdTimestamp) ?? 0,
    },
  );
}

/** getFlowVersion: the definition, base64, from the uploaded file or (a ReadyFlow's) as kept. */
export function flowDefinitionOf(h: Hook, rec: Rec): Doc {
  const data = versionData(rec);
  if (data.definition) return { flowDefinition: data.definition };
  const bytes = readUpload(h.ctx.info.dataDir, data.storedAt, MAX_DEFINITION_BYTES);
  if (!bytes)
    throw failedPrecondition(`the definition of flow version ${rec.crn ?? rec.id} is no longer stored (an import without its uploads?)`);
  return { flowDefinition: bytes.toString('base64') };
}

/** listFlowDefinitionVersions: a flow definition's, those a tag name holds the search term of. */
export function versionsListed(h: Hook, req: Doc): EngineRecord[] {
  const flow = h.records('flow').get(text(req.flowCrn));
  const tags = h.records('flowVersionTag');
  return searched(versionsOf(h, flow), req.searchTerm, (v) => tags.all(v.id).map((t) => t.name ?? ''));
}

export const versionShown = (h: Hook, rec: Rec): Doc => ({
  tags: recordsIn(h, 'flowVersionTag', rec.id).map((t) => t.doc),
  deploymentCount: deployedVersions(h.ctx).get(rec.crn ?? '') ?? 0,
});

export const checkTag = (_h: Hook, rec: Rec): void => void checkedTag(rec.doc);

// ---- imports: code (the file comes to the address the request is redirected to) ----------

/** A version an import makes: its tags, comments and the file that has come to the redirected address. */
const imported = (h: Hook, req: Doc): Parameters<typeof addVersion>[2] => {
  const tags = tagsOf(req.tags);
  return { comments: str(req.comments), tags, data: { storedAt: uploadedDefinition(h.ctx).path } };
};

/** The file has come to the redirected address: the flow definition and its first version. */
export function importFlowDefinition(h: Hook, req: Doc): Doc {
  const name = catalogName('flow definition', req.name);
  const collection = str(req.collectionCrn);
  const collectionCrn = collection ? h.records('catalogCollection').get(collection).crn : undefined;
  const version = imported(h, req);
  const flow = newFlow(h, { name, slug: name, description: str(req.description), collectionCrn });
  addVersion(h, flow, version);
  return h.conform('ImportFlowDefinitionResponse', h.records('flow').view(flow), flow.id);
}

export function importFlowDefinitionVersion(h: Hook, req: Doc): Doc {
  const flow = h.records('flow').get(text(req.flowCrn));
  if (flowData(flow).readyflow)
    throw failedPrecondition(
      `${nameOf(flow)} is a ReadyFlow: it gets new versions from Cloudera only; import yours as a flow definition of its own`,
    );
  const v = addVersion(h, flow, imported(h, req));
  return h.conform('ImportFlowDefinitionVersionResponse', h.records('flowVersion').view(v), v.id);
}

// ---- ReadyFlows added: code (a flow definition made with all its versions; one that is not added is NOT_FOUND first) ----

/** A ReadyFlow added to the catalog: a flow definition with all its versions, by Cloudera, when each was published. */
export function addReadyflow(h: Hook, req: Doc): Doc {
  const r = readyflowOf(h.locate('readyflow', readyflowNamedIn(h, req)));
  const there = addedAs(h, r.slug);
  if (there) throw alreadyExists(`ready flow ${r.name} is already in the catalog as ${there.crn ?? there.id}`);
  const flow = newFlow(h, { name: r.name, slug: r.slug, description: r.summary, readyflow: r.slug });
  for (let n = 1; n <= r.latestVersion; n++)
    addVersion(h, flow, {
      comments: `${r.name} version ${n}`,
      tags: [],
      author: 'Cloudera',
      at: publishedAt(r, n),
      data: { definition: Buffer.from(JSON.stringify(readyflowDefinition(r, n))).toString('base64') },
    });
  return h.conform('AddReadyflowResponse', { addedReadyflowDetail: addedDetails(h, flow, r) }, flow.id);
}

/** describeAddedReadyflow: the ReadyFlow it was added from, and its versions. */
export const addedReadyflowOf = (h: Hook, rec: Rec): Doc => ({ addedReadyflowDetail: addedDetails(h, rec, addedFrom(rec, rec.id)) });

/** describeAddedReadyflow, deleteAddedReadyflow: the request as the verb reads it, refused (NOT_FOUND) unless it names an added ReadyFlow. */
export function addedReadyflowIn(h: Hook, sent: Doc): Doc {
  const ref = text(sent.addedReadyflowCrn);
  addedFrom(h.records('flow').find(ref), ref);
  return sent;
}

/** deleteAddedReadyflow's answer: the ReadyFlow, no longer added (its flow definition goes as the answer is made). */
export const readyflowRemoved = (h: Hook, rec: Rec): Doc => ({
  readyflowDetail: { ...readyflowDetails(h, addedFrom(rec, rec.crn ?? rec.id)), imported: false },
});
