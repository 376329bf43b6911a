/**
 * Cloud credentials: accounts in the Cloudera Manager of each cluster they
 * were created on, under one name, which policies that write to cloud
 * storage name. A create or delete that works on some of its clusters and
 * not on others answers with an error for each of those (a partial
 * failure); one that works on none is refused, and writes nothing.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { alreadyExists, ApiError, failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { iso, str, strings, uniq } from '../../values.js';
import type { WorldCluster } from './provides.js';
import { scheduleOf } from './policies.js';
import { clusterByCrn, clusterUrl, failure, known, reachable, unreachable, type R } from './sites.js';

/** What a credential of each cloud and type is in Cloudera Manager, and the fields it needs. */
const KINDS: Readonly<Record<string, { provider: string; authType: string; needs: readonly string[]; configs: (req: Doc) => Doc }>> = {
  'AWS IAM': { provider: 'AWS', authType: 'AWS_IAM_ROLES_AUTH', needs: [], configs: () => ({}) },
  'AWS ACCESSKEY': {
    provider: 'AWS',
    authType: 'AWS_ACCESS_KEY_AUTH',
    needs: ['accessKey', 'secretKey'],
    configs: (req) => ({ aws_access_key: str(req.accessKey), aws_secret_key: '********' }),
  },
  'ABFS CLIENTKEY': {
    provider: 'ADLS',
    authType: 'ADLS_AD_SVC_PRINC_AUTH',
    needs: ['clientId', 'clientSecretKey', 'tenantId'],
    configs: (req) => ({ adls_client_id: str(req.clientId), adls_tenant_id: str(req.tenantId), adls_client_key: '********' }),
  },
};

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The error a request that worked nowhere is refused with: the first of its partial ones. */
function refusal(errors: readonly Doc[]): ApiError {
  const first = errors[0] ?? {};
  const message = String(first.message ?? 'nothing was done');
  return first.code === 404 ? notFound(message) : first.status === 'ALREADY_EXISTS' ? alreadyExists(message) : failedPrecondition(message);
}

/** createAwsCredential and createAbfsCredential: the credential on each cluster that can take it. */
function createCredential(h: Hook<R>, req: Doc, cloud: 'AWS' | 'ABFS'): Doc {
  const name = String(req.name);
  if (!NAME.test(name))
    throw invalid(`credential name ${name} is not valid: letters, digits, "_", "." and "-", beginning with a letter or digit`);
  const type = String(req.type);
  if (cloud === 'ABFS' && type === 'ACCESSKEY')
    throw failedPrecondition(
      'ABFS ACCESSKEY credentials are made on Ambari clusters; these clusters run Cloudera Manager, which takes CLIENTKEY',
    );
  const kind = KINDS[`${cloud} ${type}`];
  if (!kind) throw invalid(`type ${type} is not a type of ${cloud} credential`);
  const missing = kind.needs.filter((f) => !str(req[f]));
  if (missing.length > 0) throw invalid(`a ${type} credential needs ${missing.join(' and ')}`);
  const crns = uniq(strings(req.clusters));
  if (crns.length === 0) throw invalid('give the CRNs of the clusters to create the credential on');
  const credentials = h.records('credential');
  const errors: Doc[] = [];
  let made = 0;
  for (const crn of crns) {
    const c = known(h).find((x) => x.crn === crn);
    if (!c) errors.push(failure(404, 'NOT_FOUND', `cluster ${crn} not found`));
    else if (!c.up) errors.push(unreachable(c));
    else if (credentials.find(name, c.crn))
      errors.push(failure(409, 'ALREADY_EXISTS', `cluster ${c.name} already has a credential named ${name}`, c));
    else {
      const [id, now] = [uuid(), iso(h.ctx.clock.now())];
      const { provider, authType } = kind;
      const doc = { id, name, provider, authType, creationTime: now, lastModifiedTime: now, configs: kind.configs(req) };
      credentials.create({ id, name, scope: c.crn, env: c.environmentCrn, doc: h.conform('CredentialDetails', doc, id) });
      made++;
    }
  }
  if (made === 0) throw refusal(errors);
  return errors.length > 0 ? { errors } : {};
}

export const createAwsCredential = (h: Hook<R>, req: Doc): Doc => createCredential(h, req, 'AWS');
export const createAbfsCredential = (h: Hook<R>, req: Doc): Doc => createCredential(h, req, 'ABFS');

/** deleteCredential: the credential on every cluster that holds it and can be reached. */
export function deleteCredential(h: Hook<R>, req: Doc): Doc {
  const name = String(req.name).toLowerCase();
  const credentials = h.records('credential');
  const all = credentials.all().filter((r) => (r.name ?? '').toLowerCase() === name);
  if (all.length === 0) throw notFound(`credential ${String(req.name)} not found on any cluster`);
  const errors: Doc[] = [];
  const gone: EngineRecord[] = [];
  for (const cred of all) {
    const c = known(h).find((x) => x.crn === cred.scope);
    if (c && !c.up) {
      errors.push(unreachable(c));
      continue;
    }
    // The policies on its cluster that write with it.
    const users = h
      .records('policy')
      .all(cred.scope)
      .filter((p) => scheduleOf(p).credential === cred.name);
    if (users.length > 0)
      throw failedPrecondition(
        `credential ${cred.name ?? ''} is used by policy ${users.map((p) => p.name).join(', ')}${c ? ` on cluster ${c.name}` : ''}; delete those policies first`,
      );
    gone.push(cred);
  }
  if (gone.length === 0) throw refusal(errors);
  for (const cred of gone) credentials.remove(cred);
  return errors.length > 0 ? { errors } : {};
}

/** getCredentials: those of one cluster, or the one a name or id (which wins) names. */
export function credentialsOf(h: Hook<R>, req: Doc): EngineRecord[] {
  const c = reachable(clusterByCrn(h, String(req.clusterCrn)), 'reading its credentials');
  const all = h.records('credential').all(c.crn);
  const id = str(req.credentialId);
  const name = str(req.credentialName);
  if (!id && !name) return all;
  const picked = all.filter((r) => (id ? r.id === id : (r.name ?? '').toLowerCase() === (name ?? '').toLowerCase()));
  if (picked.length === 0) throw notFound(`cluster ${c.name} has no credential ${id ?? name ?? ''}`);
  return picked;
}

/** listAllCredentials: the credentials of a running cluster, as one item of its answer. */
export function credentialsOn(h: Hook<R>, c: WorldCluster): Doc {
  const credentials = h.records('credential');
  const views = credentials.all(c.crn).map((r) => credentials.view(r));
  return {
    clusterCrn: c.crn,
    clusterUrl: clusterUrl(c),
    replicationEngineType: 'CM',
    credentials: { totalResults: views.length, results: views.length, credentials: views },
  };
}
