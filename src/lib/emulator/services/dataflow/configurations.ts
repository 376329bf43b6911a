/** Custom NAR and Python configurations: versioned, and deletable only while no deployment uses them. */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { crnId, uuid } from '../../ids.js';
import type { Workload } from './workload.js';
import { storageLocationOk } from './catalogue.js';
import { KIND, type CustomConfig } from './records.js';
import { checkVersion, deploymentRecords, getDeployment } from './deployed.js';

export type ConfigKind = typeof KIND.nar | typeof KIND.python;

export interface ConfigSpec {
  readonly username: string;
  readonly password: string;
  readonly storageLocation: string;
  readonly configurationVersion?: number;
  readonly projectCrn?: string;
}

const label = (kind: ConfigKind): string => (kind === KIND.nar ? 'custom NAR' : 'custom Python');
const deploymentKey = (kind: ConfigKind): 'customNarConfigurationCrn' | 'customPythonConfigurationCrn' =>
  kind === KIND.nar ? 'customNarConfigurationCrn' : 'customPythonConfigurationCrn';

/** A configuration's storage location is an object-store URL and its user name is not empty. */
export function checkLocation(spec: Pick<ConfigSpec, 'storageLocation' | 'username'>): void {
  if (!storageLocationOk(spec.storageLocation))
    throw invalid(`storage location "${spec.storageLocation.slice(0, 200)}" is not an object-store URL such as s3a://bucket/path`);
  if (!spec.username.trim()) throw invalid('username must not be empty');
}

export function get(w: Workload, kind: ConfigKind, env: string, crn: string): CustomConfig {
  const found = w.store.getByCrn<CustomConfig>(crn);
  if (!found || found.kind !== kind || (env && found.doc.environmentCrn !== env))
    throw notFound(`${label(kind)} configuration ${crn} not found`);
  return found.doc;
}

/** The configuration named, or the one a deployment uses. */
export function find(
  w: Workload,
  kind: ConfigKind,
  env: string,
  ref: { crn?: string; deploymentCrn?: string },
  field: string,
): CustomConfig {
  let c = ref.crn;
  if (!c && ref.deploymentCrn) {
    const d = getDeployment(w, env, ref.deploymentCrn);
    const used = d.config[deploymentKey(kind)];
    c = typeof used === 'string' && used ? used : undefined;
    if (!c) throw notFound(`deployment ${d.name} uses no ${label(kind)} configuration`);
  }
  if (!c) throw invalid(`give ${field} or deploymentCrn`);
  return get(w, kind, env, c);
}

export function create(w: Workload, kind: ConfigKind, env: string, spec: ConfigSpec): CustomConfig {
  checkLocation(spec);
  const id = uuid();
  const c: CustomConfig = {
    crn: w.crnOf(kind === KIND.nar ? 'customNarConfiguration' : 'customPythonConfiguration', id),
    environmentCrn: env,
    username: spec.username,
    password: spec.password,
    storageLocation: spec.storageLocation,
    configurationVersion: spec.configurationVersion ?? 0,
    projectCrn: spec.projectCrn,
  };
  w.store.put(kind, id, c, { crn: c.crn });
  return c;
}

/** Replaces a configuration's settings (the current version must be named); `projectCrn` null moves it out of its project. */
export function update(
  w: Workload,
  kind: ConfigKind,
  env: string,
  crn: string | undefined,
  spec: Omit<ConfigSpec, 'projectCrn'> & { projectCrn?: string | null },
  version: unknown,
): CustomConfig {
  if (!crn) throw invalid('crn is required: the configuration to update');
  const c = get(w, kind, env, crn);
  checkVersion(c.configurationVersion, version, label(kind));
  checkLocation(spec);
  c.username = spec.username;
  c.password = spec.password;
  c.storageLocation = spec.storageLocation;
  if (spec.projectCrn !== undefined) c.projectCrn = spec.projectCrn ?? undefined;
  c.configurationVersion += 1;
  w.store.put(kind, crnId(c.crn), c, { crn: c.crn });
  return c;
}

export function remove(w: Workload, kind: ConfigKind, env: string, crn: string, version: unknown): CustomConfig {
  const c = get(w, kind, env, crn);
  checkVersion(c.configurationVersion, version, label(kind));
  const user = deploymentRecords(w)
    .all()
    .find((d) => d.config[deploymentKey(kind)] === c.crn);
  if (user) throw failedPrecondition(`the configuration is used by deployment ${user.name}; only unused configurations can be deleted`);
  w.store.delete(kind, crnId(c.crn));
  return c;
}

/** The environment's first custom NAR configuration. */
export function defaultNar(w: Workload, env: string): CustomConfig {
  const first = w.store
    .list<CustomConfig>(KIND.nar)
    .map((x) => x.doc)
    .find((c) => c.environmentCrn === env);
  if (!first) throw notFound('the environment has no custom NAR configuration');
  return first;
}
