/**
 * Reporting tasks, records of the engine (index.ts's `reportingTask`): NiFi
 * reporting task definitions uploaded as JSON, of an environment or one of
 * its deployments; the file is kept with the task and goes with it.
 */
import { readFileSync } from 'node:fs';
import type { Doc } from '../../engine/context.js';
import type { Hook, Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { invalid, notFound } from '../../errors.js';
import { removeUpload } from '../../uploads.js';
import { str, text } from '../../values.js';
import { upload } from './assets.js';
import { Workload, inEnvironment, type R } from './workload.js';

/** A create's task is what its uploaded definition says: its name (else the file's) and type. */
export function definition(h: Hook<R>, sent: Doc): Doc {
  const w = new Workload(h);
  const u = upload(w);
  const deploymentCrn = str(sent.deploymentCrn);
  if (deploymentCrn) w.deployment(w.environment(str(sent.environmentCrn)), deploymentCrn);
  if (u.size > 1024 * 1024) throw invalid('the reporting task definition is over 1 MiB');
  let def: Doc;
  try {
    def = JSON.parse(readFileSync(u.path, 'utf8')) as Doc;
  } catch {
    throw invalid('the reporting task definition is not valid JSON');
  }
  const filePath = text(sent.filePath);
  return {
    ...sent,
    name: str(def.name) ?? (filePath.split(/[\\/]/).pop() ?? filePath).replace(/\.json$/i, ''),
    type: str(def.type) ?? 'org.apache.nifi.reporting.ReportingTask',
  };
}

/** The tasks of an environment, of one of its deployments when one is named. */
export function tasksOf(h: Hook<R>, req: Doc): EngineRecord[] {
  const w = new Workload(h);
  const env = w.environment(str(req.environmentCrn));
  const deploymentCrn = str(req.deploymentCrn);
  if (deploymentCrn) w.deployment(env, deploymentCrn);
  const tasks = h.records('reportingTask').all(env);
  return tasks.filter((t) => !deploymentCrn || t.doc.deploymentCrn === deploymentCrn);
}

/** The declaration of reporting tasks. */
export const reportingTask: Resource<R> = {
  ...inEnvironment('reporting task', ['reportingTaskCrn']),
  // Two tasks may have one definition's name.
  names: 'repeat',
  hooks: {
    // Its id is its identifier; its deployment and the file it was read from are kept with it (not shown).
    fill: (h, rec, req) => {
      const u = upload(new Workload(h));
      return { identifier: rec.id, deploymentCrn: str(req.deploymentCrn), storedAt: u.path, size: u.size };
    },
    check: {
      // A task is deleted from the deployment it is of (none: the environment's), and its file goes with it.
      delete: (h, rec, req) => {
        if (str(rec.doc.deploymentCrn) !== str(req.deploymentCrn)) throw notFound(`reporting task ${String(rec.crn)} not found`);
        removeUpload(h.ctx.info.dataDir, rec.doc.storedAt);
      },
    },
  },
};
