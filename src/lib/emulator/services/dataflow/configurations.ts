/** Custom NAR and Python configurations: versioned, and deletable only while no deployment uses them. */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { crnId, uuid } from '../../ids.js';
import type { Workload } from './workload.js';
import { storageLocationOk } from './catalogue.js';
import { checkVersion } from './deployments.js';
import { KIND, type CustomConfig } from './records.js';

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

export class Configurations {
  constructor(private readonly b: Workload) {}

  get(kind: ConfigKind, env: string, crn: string): CustomConfig {
    const found = this.b.store.getByCrn<CustomConfig>(crn);
    if (!found || found.kind !== kind || (env && found.doc.environmentCrn !== env))
      throw notFound(`${label(kind)} configuration ${crn} not found`);
    return found.doc;
  }

  /** The configuration named, or the one a deployment uses. */
  find(kind: ConfigKind, env: string, ref: { crn?: string; deploymentCrn?: string }, field: string): CustomConfig {
    let c = ref.crn;
    if (!c && ref.deploymentCrn) {
      const d = this.b.deployments.get(env, ref.deploymentCrn);
      const used = d.config[deploymentKey(kind)];
      c = typeof used === 'string' && used ? used : undefined;
      if (!c) throw notFound(`deployment ${d.name} uses no ${label(kind)} configuration`);
    }
    if (!c) throw invalid(`give ${field} or deploymentCrn`);
    return this.get(kind, env, c);
  }

  create(kind: ConfigKind, env: string, spec: ConfigSpec): CustomConfig {
    checkLocation(spec);
    const id = uuid();
    const c: CustomConfig = {
      crn: this.b.crnOf(kind === KIND.nar ? 'customNarConfiguration' : 'customPythonConfiguration', id),
      environmentCrn: env,
      username: spec.username,
      password: spec.password,
      storageLocation: spec.storageLocation,
      configurationVersion: spec.configurationVersion ?? 0,
      projectCrn: spec.projectCrn,
    };
    this.b.store.put(kind, id, c, { crn: c.crn });
    return c;
  }

  /** Replaces a configuration's settings (the current version must be named); `projectCrn` null moves it out of its project. */
  update(
    kind: ConfigKind,
    env: string,
    crn: string | undefined,
    spec: Omit<ConfigSpec, 'projectCrn'> & { projectCrn?: string | null },
    version: unknown,
  ): CustomConfig {
    if (!crn) throw invalid('crn is required: the configuration to update');
    const c = this.get(kind, env, crn);
    checkVersion(c.configurationVersion, version, label(kind));
    checkLocation(spec);
    c.username = spec.username;
    c.password = spec.password;
    c.storageLocation = spec.storageLocation;
    if (spec.projectCrn !== undefined) c.projectCrn = spec.projectCrn ?? undefined;
    c.configurationVersion += 1;
    this.b.store.put(kind, crnId(c.crn), c, { crn: c.crn });
    return c;
  }

  delete(kind: ConfigKind, env: string, crn: string, version: unknown): CustomConfig {
    const c = this.get(kind, env, crn);
    checkVersion(c.configurationVersion, version, label(kind));
    const user = this.b.deployments.all().find((d) => d.config[deploymentKey(kind)] === c.crn);
    if (user) throw failedPrecondition(`the configuration is used by deployment ${user.name}; only unused configurations can be deleted`);
    this.b.store.delete(kind, crnId(c.crn));
    return c;
  }

  /** Checks settings without storing them. */
  validate(spec: ConfigSpec): void {
    checkLocation(spec);
  }

  /** The environment's first custom NAR configuration. */
  defaultNar(env: string): CustomConfig {
    const first = this.b.store
      .list<CustomConfig>(KIND.nar)
      .map((x) => x.doc)
      .find((c) => c.environmentCrn === env);
    if (!first) throw notFound('the environment has no custom NAR configuration');
    return first;
  }
}
