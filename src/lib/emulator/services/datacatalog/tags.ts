/**
 * What the catalog finds in a data lake: tag suggestions from a small
 * built-in profile of every data lake (reviewed tags kept in a `tagReview`
 * record a lake), fine-grained access status by table, and the profilers a
 * data lake launches once (a `profilers` record: the Data Hub cluster they
 * run on, whose CRN is a Data Hub's).
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { alreadyExists } from '../../errors.js';
import { crn, crnId, stableUuid, uuid } from '../../ids.js';
import { docs, str, strings, text } from '../../values.js';
import type { R, Rec } from './shares.js';

/** What the built-in profile of every data lake finds: column -> suggested tags. */
const PROFILE: Readonly<Record<string, readonly string[]>> = {
  'sales.customers.name': ['PII', 'PERSON_NAME'],
  'sales.customers.email': ['PII', 'EMAIL'],
  'sales.customers.phone': ['PII', 'PHONE_NUMBER'],
  'sales.orders.card_number': ['PCI', 'CREDIT_CARD'],
  'hr.employees.ssn': ['PII', 'US_SSN'],
  'hr.employees.email': ['PII', 'EMAIL'],
  'hr.employees.salary': ['CONFIDENTIAL'],
};

/** The tags reviewed (accepted or rejected) and accepted, by qualified name, of a data lake. */
interface Review {
  reviewed: Record<string, string[]>;
  accepted: Record<string, string[]>;
}

/** The id of a data lake's review record (a CRN names records by their own CRN, so the lake's is no name for it). */
const reviewId = (datalakeCrn: string): string => stableUuid(`tags/${datalakeCrn}`);

const reviewOf = (h: Hook<R>, datalakeCrn: string): Review =>
  (h.records('tagReview').byId(reviewId(datalakeCrn))?.doc as Review | undefined) ?? { reviewed: {}, accepted: {} };

/** The tags accepted for the columns of a table. */
export function acceptedTags(h: Hook<R>, datalakeCrn: string, tableFqn: string): string[] {
  return Object.entries(reviewOf(h, datalakeCrn).accepted)
    .filter(([qn]) => qn.toLowerCase().startsWith(`${tableFqn.toLowerCase()}.`))
    .flatMap(([, tags]) => tags);
}

/** getSuggestedTags: the profile's tags not yet reviewed, of a table or column when given; none when profiled since a time to come. */
export function getSuggestedTags(h: Hook<R>, req: Doc): Doc {
  const since = str(req.profiledSince);
  if (since && Date.parse(since) > h.ctx.clock.now()) return { suggestedTags: [] };
  const { reviewed } = reviewOf(h, text(req.datalakeCrn));
  const table = str(req.tableFQN)?.toLowerCase();
  const column = str(req.columnFQN)?.toLowerCase();
  const suggestedTags: Doc[] = [];
  for (const [qn, tags] of Object.entries(PROFILE)) {
    if (column && qn !== column) continue;
    if (table && !qn.startsWith(`${table}.`)) continue;
    const pending = tags.filter((t) => !(reviewed[qn] ?? []).includes(t));
    if (pending.length > 0) suggestedTags.push({ qualifiedName: qn, tags: pending });
  }
  return { suggestedTags };
}

/** reviewSuggestedTags: accepts or rejects suggested tags; a column with none of them pending fails alone. */
export function reviewSuggestedTags(h: Hook<R>, req: Doc): Doc {
  const datalakeCrn = text(req.datalakeCrn);
  const accept = req.action === 'ACCEPT';
  const reviews = h.records('tagReview');
  const id = reviewId(datalakeCrn);
  const rec = reviews.byId(id) ?? reviews.create({ id, scope: '', doc: { reviewed: {}, accepted: {} } });
  const review = rec.doc as unknown as Review;
  const reviewedTags = docs(req.assets).map((a) => {
    const qualifiedName = text(a.qualifiedName);
    const qn = qualifiedName.toLowerCase();
    const done = review.reviewed[qn] ?? [];
    const pending = (PROFILE[qn] ?? []).filter((t) => !done.includes(t));
    const hit = strings(a.tags).filter((t) => pending.includes(t));
    if (hit.length === 0) return { qualifiedName, tagsUpdated: [], status: 'FAILED' };
    review.reviewed[qn] = [...done, ...hit];
    if (accept) review.accepted[qn] = [...(review.accepted[qn] ?? []), ...hit];
    return { qualifiedName, tagsUpdated: hit, status: accept ? 'ACCEPTED' : 'REJECTED' };
  });
  reviews.save(rec);
  return { reviewedTags };
}

/**
 * getFgacStatusByAssets: fine-grained access status per table: a table whose
 * columns the profile tags as PII or PCI is covered by a masking policy;
 * others have none.
 */
export function getFgacStatusByAssets(_h: Hook<R>, req: Doc): Doc {
  const listOfFgacStatus: Record<string, string> = {};
  for (const a of docs(req.assets)) {
    const table = `${text(a.databaseName)}.${text(a.tableName)}`;
    const prefix = `${table.toLowerCase()}.`;
    const sensitive = Object.entries(PROFILE).some(([qn, tags]) => qn.startsWith(prefix) && tags.some((t) => t === 'PII' || t === 'PCI'));
    listOfFgacStatus[table] = sensitive ? 'FGAC_POLICY_FOUND' : 'NO_FGAC_POLICY';
  }
  return { listOfFgacStatus };
}

/** The name a data lake's profilers go by: its id, or the name it was given by. */
const profilersOf = (datalake: string): string => (datalake.startsWith('crn:') ? crnId(datalake) : datalake.toLowerCase());

/** launchProfilers' request, as the create verb reads it: the profilers are named by their data lake. */
export const profilersNamed = (_h: Hook<R>, sent: Doc): Doc => ({ ...sent, clusterName: profilersOf(text(sent.datalake)) });

/** A data lake's profilers are launched once. */
export function checkLaunch(h: Hook<R>, rec: Rec, req: Doc): void {
  if (h.records('profilers').find(rec.name ?? ''))
    throw alreadyExists(`the profilers of data lake ${text(req.datalake)} are already launched`);
}

/**
 * launchProfilers: a data lake's profilers, launched once: a Data Hub
 * cluster (HA: 3 nodes; with compute options up to maxNodes, at most 3),
 * made of the data lake the emulator has (its name, environment, cloud and
 * credential), when it has it; its CRN is a Data Hub's.
 */
export function fillProfilers(h: Hook<R>, _rec: Rec, req: Doc): Doc {
  const datalake = text(req.datalake);
  const lake = h.world.lakes.find(datalake);
  const env = lake ? h.world.environments.find(lake.environmentCrn) : undefined;
  const credentialCrn = env ? h.world.environments.credential(env.credentialName)?.crn : undefined;
  const maxNodes = typeof req.maxNodes === 'number' ? req.maxNodes : undefined;
  const compute = maxNodes !== undefined || req.profilers !== undefined || req.instanceTypes !== undefined;
  const { accountId, region } = h.ctx.info;
  return {
    clusterName: `${lake?.name ?? crnId(datalake)}-profilers`.slice(0, 40),
    crn: crn('datahub', region, accountId, 'cluster', uuid()),
    clusterStatus: 'REQUESTED',
    nodeCount: req.enableHA === true ? 3 : compute ? Math.min(maxNodes ?? 30, 3) : 1,
    workloadType: 'DataCatalogProfilers',
    cloudPlatform: env?.cloudPlatform ?? 'AWS',
    environmentCrn: lake?.environmentCrn,
    credentialCrn,
    datalakeCrn: lake?.crn ?? (datalake.startsWith('crn:') ? datalake : undefined),
    clusterTemplateCrn: crn('datahub', region, 'cloudera', 'clustertemplate', 'datacatalog-profilers'),
    imageDetails: {
      name: 'runtime-7.3.1',
      id: '2f6c1e3a-8d4b-4f7e-9a21-5c0b7d3e9f10',
      catalogUrl: 'https://cloudbreak-imagecatalog.s3.amazonaws.com/v3-prod-cb-image-catalog.json',
      catalogName: 'cdp-default',
    },
  };
}
