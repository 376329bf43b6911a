/** environments operations on FreeIPA: unpack the wire request, call the FreeIPA part, build the wire answer. */
import type { Doc } from '../../types.js';
import { bool, docs, iso, obj, str, strings, text } from '../../values.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { backendOf, type EnvironmentsBackend, type R } from './backend.js';
import type { AvailabilityType } from './freeipa.js';
import { freeipaStatusView, imageView } from './views.js';

const REPAIR_STATUS: Readonly<Record<string, string>> = {
  RUNNING: 'RUNNING',
  FINISHED: 'COMPLETED',
  FAILED: 'FAILED',
  CANCELLED: 'FAILED',
};

/** A repair as getRepairFreeipaStatus (and repairFreeipa) answers it, from its operation record. */
function repairView(b: EnvironmentsBackend, operationId: string): Doc {
  const rec = b.freeipa.repairOperation(operationId);
  const { status, ended } = b.operations.status(rec);
  const state = REPAIR_STATUS[status] ?? 'RUNNING';
  // Its owner is its environment, by id.
  const environmentCrn = b.envs.byId(rec.owner)?.crn ?? rec.owner;
  const detail = { environmentCrn, message: `repaired the FreeIPA servers of the environment` };
  const error = state === 'FAILED' ? (b.freeipa.failure(environmentCrn, operationId) ?? 'the repair failed') : undefined;
  return {
    operationId,
    status: state,
    successfulOperationDetails: state === 'COMPLETED' ? [detail] : [],
    failureOperationDetails: error ? [{ environmentCrn, message: error }] : [],
    ...(error ? { error } : {}),
    startDate: iso(rec.tl.startedAt),
    ...(ended !== undefined ? { endDate: iso(ended) } : {}),
  };
}

/** An availability type a response shape's enum allows, else nothing (the wire has no value for it). */
const onlyIf = (allowed: readonly string[], field: string, value: string): Doc => (allowed.includes(value) ? { [field]: value } : {});
/** The status of an environment's FreeIPA and of each of its servers. */
export const freeipaStatus = (h: Hook<R>, rec: Readonly<EngineRecord>): Doc => {
  const b = backendOf(h);
  const e = b.of(rec);
  return freeipaStatusView(e, b.freeipa.of(e), b.freeipa);
};

export const upscaleFreeipa = (b: EnvironmentsBackend, req: Doc): Doc => {
  const target = text(req.targetAvailabilityType) as AvailabilityType;
  const r = b.freeipa.upscale(text(req.environmentName), target);
  return { originalAvailabilityType: r.original, ...onlyIf(['HA'], 'targetAvailabilityType', target), operationId: r.operationId };
};

export const downscaleFreeipa = (b: EnvironmentsBackend, req: Doc): Doc => {
  const r = b.freeipa.downscale(text(req.environmentName), {
    ...(str(req.targetAvailabilityType) ? { target: text(req.targetAvailabilityType) as AvailabilityType } : {}),
    instances: strings(req.instances),
    force: bool(req.force),
  });
  return { ...onlyIf(['HA'], 'originalAvailabilityType', r.original), targetAvailabilityType: r.target, operationId: r.operationId };
};

export const startFreeIpaVerticalScaling = (b: EnvironmentsBackend, req: Doc): Doc => {
  const template = obj(req.instanceTemplate);
  const r = b.freeipa.verticalScale(text(req.environment), str(template.instanceType), docs(template.attachedVolumes).length);
  return { result: `FreeIPA moves from ${r.from} to ${r.to}`, operationId: r.operationId };
};

export const repairFreeipa = (b: EnvironmentsBackend, req: Doc): Doc => {
  const type = str(req.repairType) ?? 'AUTO';
  const id = b.freeipa.repair(text(req.environmentName), {
    force: bool(req.force),
    instances: strings(req.instances),
    rebuild: type === 'REBUILD',
  });
  return repairView(b, id);
};

export const getRepairFreeipaStatus = (b: EnvironmentsBackend, req: Doc): Doc => {
  const { operationId: _id, ...view } = repairView(b, text(req.operationId));
  return view;
};

export const retryFreeipa = (b: EnvironmentsBackend, req: Doc): Doc => ({ operationId: b.freeipa.retry(text(req.environment)) });

/** The images an environment's FreeIPA can be upgraded to. */
export const upgradeOptions = (h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc): Doc => {
  const b = backendOf(h);
  const o = b.freeipa.upgradeOptions(rec.crn ?? '', bool(req.allowMajorOsUpgrade));
  const catalog = str(req.catalog) ?? o.catalog;
  return { currentImage: imageView(o.current, o.catalog), images: o.images.map((i) => imageView(i, catalog)) };
};

export const upgradeFreeipa = (b: EnvironmentsBackend, req: Doc): Doc => {
  const r = b.freeipa.upgrade(text(req.environmentName), str(req.imageId), bool(req.allowMajorOsUpgrade));
  const catalog = b.freeipa.upgradeOptions(text(req.environmentName), false).catalog;
  return { originalImage: imageView(r.original, catalog), targetImage: imageView(r.target, catalog), operationId: r.operationId };
};

export const setCatalog = (b: EnvironmentsBackend, req: Doc): Doc => {
  b.freeipa.setCatalog(text(req.environment), text(req.catalog));
  return {};
};

export const rotateFreeipaSecrets = (b: EnvironmentsBackend, req: Doc): Doc => ({
  operationId: b.freeipa.rotateSecrets(text(req.environment), strings(req.secretTypes)),
});

export const rotateSaltPassword = (b: EnvironmentsBackend, req: Doc): Doc => ({
  operationId: b.freeipa.rotateSecrets(text(req.environment), ['SALT_PASSWORD']),
});

export const updateFreeipaToAwsImdsV1 = (b: EnvironmentsBackend, req: Doc): Doc => ({
  operationId: b.freeipa.imds(text(req.environmentCrn), 'v1'),
});

export const updateFreeipaToAwsImdsV2 = (b: EnvironmentsBackend, req: Doc): Doc => ({
  operationId: b.freeipa.imds(text(req.environmentCrn), 'v2'),
});

export const updateOrchestratorState = (b: EnvironmentsBackend, req: Doc): Doc => ({
  operationId: b.freeipa.updateOrchestratorState(text(req.environment)),
});

export const attachFreeIpaRecipes = (b: EnvironmentsBackend, req: Doc): Doc => {
  b.freeipa.attachRecipes(text(req.environment), strings(req.recipes));
  return {};
};

export const detachFreeIpaRecipes = (b: EnvironmentsBackend, req: Doc): Doc => {
  b.freeipa.detachRecipes(text(req.environment), strings(req.recipes));
  return {};
};
