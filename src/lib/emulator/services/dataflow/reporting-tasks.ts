/** Reporting tasks: NiFi reporting task definitions uploaded as JSON, of an environment or one of its deployments. */
import { readFileSync } from 'node:fs';
import { invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { removeUpload } from '../../uploads.js';
import { str } from '../../values.js';
import { KIND, type ReportingTask } from './records.js';
import type { Workload } from './workload.js';
import { getDeployment } from './deployed.js';
import { upload } from './assets.js';

/** A reporting task from an uploaded JSON definition (its name and type are read from it). */
export function createReportingTask(w: Workload, env: string, deploymentCrn: string | undefined, filePath: string): ReportingTask {
  const u = upload(w);
  if (deploymentCrn) getDeployment(w, env, deploymentCrn);
  let name = (filePath.split(/[\\/]/).pop() ?? filePath).replace(/\.json$/i, '');
  let type = 'org.apache.nifi.reporting.ReportingTask';
  if (u.size > 1024 * 1024) throw invalid('the reporting task definition is over 1 MiB');
  try {
    const def = JSON.parse(readFileSync(u.path, 'utf8')) as Doc;
    name = str(def.name) ?? name;
    type = str(def.type) ?? type;
  } catch {
    throw invalid('the reporting task definition is not valid JSON');
  }
  const id = uuid();
  const rec: ReportingTask = {
    crn: w.crnOf('reportingTask', id),
    identifier: id,
    name,
    type,
    environmentCrn: env,
    deploymentCrn,
    storedAt: u.path,
    size: u.size,
  };
  w.store.put(KIND.reportingTask, id, rec, { crn: rec.crn, parent: deploymentCrn ?? env });
  return rec;
}

export function deleteReportingTask(w: Workload, env: string, deploymentCrn: string | undefined, crn: string): ReportingTask {
  const found = w.store.getByCrn<ReportingTask>(crn);
  if (!found || found.kind !== KIND.reportingTask || found.doc.environmentCrn !== env || found.doc.deploymentCrn !== deploymentCrn)
    throw notFound(`reporting task ${crn} not found`);
  removeUpload(w.ctx.info.dataDir, found.doc.storedAt);
  w.store.delete(KIND.reportingTask, found.id);
  return found.doc;
}

export function reportingTasks(w: Workload, env: string, deploymentCrn?: string): ReportingTask[] {
  if (deploymentCrn) getDeployment(w, env, deploymentCrn);
  return w.store
    .list<ReportingTask>(KIND.reportingTask)
    .map((x) => x.doc)
    .filter((t) => t.environmentCrn === env && (!deploymentCrn || t.deploymentCrn === deploymentCrn));
}
