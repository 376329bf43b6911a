/**
 * Custom NAR and Python configurations, records of the engine (index.ts's
 * `customNarConfiguration` and `customPythonConfiguration`): each of an
 * environment, never showing its password, versioned (a change must name
 * the current version and moves it on by one), and deletable only while no
 * deployment uses it.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook, Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { invalid, failedPrecondition, notFound } from '../../errors.js';
import { num, str, text } from '../../values.js';
import { Workload, checkVersion, inEnvironment, type Call, type R } from './workload.js';

export type ConfigResource = Extract<R, 'customNarConfiguration' | 'customPythonConfiguration'>;

/** The field that names one (`customNarConfigurationCrn`), in requests and in a deployment's configuration. */
export const configField = (r: ConfigResource): 'customNarConfigurationCrn' | 'customPythonConfigurationCrn' => `${r}Crn`;
const label = (r: ConfigResource): string => (r === 'customNarConfiguration' ? 'custom NAR' : 'custom Python');
const versionOf = (rec: Readonly<EngineRecord>): number => num(rec.doc.configurationVersion) ?? 0;

/** A configuration's storage location is an object-store URL and its user name is not empty. */
export function checkLocation(spec: Doc): void {
  const location = text(spec.storageLocation);
  if (!/^(s3a?|abfss?|wasbs?|gs|hdfs|ofs|https?):\/\/\S+$/i.test(location))
    throw invalid(`storage location "${location.slice(0, 200)}" is not an object-store URL such as s3a://bucket/path`);
  if (!text(spec.username).trim()) throw invalid('username must not be empty');
}

/** A configuration of an environment (any, when none is given), or NOT_FOUND. */
export function get(w: Workload, r: ConfigResource, env: string, crn: string): EngineRecord {
  const found = w.h.records(r).find(crn, env || undefined);
  if (!found) throw notFound(`${label(r)} configuration ${crn} not found`);
  return found;
}

/** A read names the configuration, or a deployment of the environment that uses one. */
export const named =
  (r: ConfigResource) =>
  (h: Hook<R>, sent: Doc): Doc => {
    const deploymentCrn = str(sent.deploymentCrn);
    if (str(sent[configField(r)]) || !deploymentCrn) return sent;
    const d = new Workload(h).deployment(text(sent.environmentCrn), deploymentCrn);
    const used = str(d.doc.config[configField(r)]);
    if (!used) throw notFound(`deployment ${d.name} uses no ${label(r)} configuration`);
    return { ...sent, [configField(r)]: used };
  };

/** An update names the current version and moves it on by one. */
export const nextVersion =
  (r: ConfigResource) =>
  (h: Hook<R>, sent: Doc): Doc => {
    if (!str(sent.crn)) throw invalid('crn is required: the configuration to update');
    const current = versionOf(h.locate(r, sent));
    checkVersion(current, sent.configurationVersion, `${label(r)}`);
    return { ...sent, configurationVersion: current + 1 };
  };

/** The default custom NAR configuration: the environment's first. */
export function firstNar(h: Hook<R>, sent: Doc): Doc {
  const env = h.world.environments.require(text(sent.environmentCrn)).crn;
  const first = h.records('customNarConfiguration').all(env)[0];
  if (!first) throw notFound('the environment has no custom NAR configuration');
  return { ...sent, customNarConfigurationCrn: first.crn };
}

/** The declaration of one kind of configuration. */
export const configuration = (r: ConfigResource): Resource<R> => ({
  ...inEnvironment(`${label(r)} configuration`, [configField(r), 'crn']),
  hooks: {
    check: {
      create: (_h, rec) => checkLocation(rec.doc),
      update: (_h, rec) => checkLocation(rec.doc),
      delete: (h, rec, req) => {
        checkVersion(versionOf(rec), req.configurationVersion, label(r));
        const user = new Workload(h).allDeployments().find((d) => d.doc.config[configField(r)] === rec.crn);
        if (user)
          throw failedPrecondition(`the configuration is used by deployment ${user.name}; only unused configurations can be deleted`);
      },
    },
    // In the project asked for or none (the shape's made-up value would name one).
    fill: (_h, rec, req) => ({ configurationVersion: versionOf(rec), projectCrn: str(req.projectCrn) }),
    // The stored secret is never sent back.
    show: () => ({ password: '********' }),
  },
});

/** A validation checks a configuration's settings without keeping them. */
const validate: Call = (_w, r) => {
  checkLocation(r);
  return {};
};

export const configurationCalls = { validateCustomNarConfiguration: validate, validateCustomPythonConfiguration: validate };
