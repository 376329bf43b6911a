/**
 * Cloudera AI's fixed world in the emulator: the releases of workbenches,
 * AI registries and inference services, the instance types each cloud
 * offers (what `ml instance-types list` filters and instance groups show),
 * and the statuses its resources read.
 *
 * Statuses are `<phase>:<started|finished|failed>`, as the service writes
 * them: `installation:finished` is a ready workbench, `deprovision:started`
 * one on its way out.
 */
import { WORKBENCH_SERVING } from '../../../model/services/ml/resources.js';
import type { Doc } from '../../engine/context.js';
import { readRecord, type EngineRecord } from '../../engine/records.js';
import { compareVersions } from '../../shared/runtimes.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { obj, str, text } from '../../values.js';
import type { CloudPlatform } from '../../world/contracts.js';
import type { Hook } from './clusters.js';

/** Releases, oldest first: the emulator deploys `deployed`; `latest` is the newest, where upgrades go. */
const releases = (all: readonly string[], deployed: string) => ({ all, deployed, latest: all[all.length - 1] ?? deployed });
export type Releases = ReturnType<typeof releases>;

/** A new workbench runs the release before the newest, so that an upgrade has somewhere to go. */
export const WORKBENCH_RELEASES = releases(['2.0.46-b210', '2.0.47-b359', '2.0.48-b210', '2.0.49-b11', '2.0.50-b58'], '2.0.49-b11');
export const REGISTRY_RELEASES = releases(['1.10.0', '1.11.0', '1.12.0'], '1.11.0');
export const SERVING_RELEASES = releases(['1.3.0', '1.4.0', '1.5.0'], '1.4.0');

/** Whether release `a` comes after `b` (numeric parts compared in order: 2.0.50-b58 after 2.0.49-b11). */
export const newer = (a: string, b: string): boolean => compareVersions(a, b) > 0;

/** The release an upgrade goes to: the one asked for (newer than the running one), else the newest. */
export function upgradeTarget(releases: Releases, running: string, asked: string | undefined, what: string, again = false): string {
  if (asked !== undefined && !releases.all.includes(asked))
    throw invalid(`${asked} is not a release; the releases are ${releases.all.join(', ')}`);
  const to = asked ?? releases.latest;
  if (to === running && !again) throw failedPrecondition(`${what} already runs ${running}${asked ? '' : ', the latest release'}`);
  if (to !== running && !newer(to, running)) throw failedPrecondition(`${what} runs ${running}; ${to} is older`);
  return to;
}

// ---- statuses ------------------------------------------------------------------

/** Whether the cluster of a workbench, registry or inference service is installed and reachable (it may be busy changing). */
export const installed = (state: string): boolean =>
  (WORKBENCH_SERVING as readonly string[]).includes(state) || /^(modify|upgrade|rollback|failover):/.test(state);

/** Whether its cluster exists (installed, or a workbench's suspended one). */
export const clusterExists = (state: string): boolean => installed(state) || /^(suspend|resume):/.test(state);

// ---- instance types -----------------------------------------------------------------

/** GPUs by short type: full name, memory (GiB), compute capability. */
const GPUS = {
  T4: ['NVIDIA Tesla T4', 16, '7.5'],
  V100: ['NVIDIA Tesla V100', 16, '7.0'],
  A10G: ['NVIDIA A10G', 24, '8.6'],
  L4: ['NVIDIA L4', 24, '8.9'],
  A100: ['NVIDIA A100', 40, '8.0'],
  A100_80: ['NVIDIA A100 80GB', 80, '8.0'],
} as const;

/**
 * An instance type: its vCPUs, memory (GiB) and GPUs; with GPUs, their full
 * name, short type, memory (GiB), CUDA compute capability and how they
 * connect. Numbers are text on the wire (InstanceDetails): answers make them so.
 */
function offer(name: string, cpu: number, memory: number, gpu = 0, kind?: keyof typeof GPUS, link = 'PCIe') {
  const g = kind && GPUS[kind];
  const gpuType = kind?.replace('_80', '');
  const category = kind ? 'GPU' : 'CPU';
  return {
    name,
    category,
    cpu,
    memory,
    gpu,
    gpuModel: g?.[0],
    gpuType,
    gpuMemory: g?.[1],
    computeCapability: g?.[2],
    interconnectType: g && link,
  };
}
export type InstanceType = ReturnType<typeof offer>;

/** The instance types each cloud offers Cloudera AI. */
export const INSTANCE_TYPES: Readonly<Record<CloudPlatform, readonly InstanceType[]>> = {
  AWS: [
    offer('m5.xlarge', 4, 16),
    offer('m5.2xlarge', 8, 32),
    offer('m5.4xlarge', 16, 64),
    offer('m5.8xlarge', 32, 128),
    offer('r5.2xlarge', 8, 64),
    offer('r5.4xlarge', 16, 128),
    offer('c5.4xlarge', 16, 32),
    offer('g4dn.xlarge', 4, 16, 1, 'T4'),
    offer('g4dn.2xlarge', 8, 32, 1, 'T4'),
    offer('p3.2xlarge', 8, 61, 1, 'V100'),
    offer('p3.8xlarge', 32, 244, 4, 'V100', 'NVLink'),
    offer('g5.2xlarge', 8, 32, 1, 'A10G'),
    offer('g5.4xlarge', 16, 64, 1, 'A10G'),
    offer('g5.12xlarge', 48, 192, 4, 'A10G'),
    offer('p4d.24xlarge', 96, 1152, 8, 'A100', 'NVSwitch'),
  ],
  AZURE: [
    offer('Standard_D8s_v3', 8, 32),
    offer('Standard_D16s_v3', 16, 64),
    offer('Standard_E8s_v3', 8, 64),
    offer('Standard_E16s_v3', 16, 128),
    offer('Standard_NC4as_T4_v3', 4, 28, 1, 'T4'),
    offer('Standard_NC6s_v3', 6, 112, 1, 'V100'),
    offer('Standard_NC24ads_A100_v4', 24, 220, 1, 'A100_80'),
  ],
  GCP: [
    offer('e2-standard-8', 8, 32),
    offer('n2-standard-8', 8, 32),
    offer('n2-standard-16', 16, 64),
    offer('n2-highmem-8', 8, 64),
    offer('g2-standard-8', 8, 32, 1, 'L4'),
    offer('a2-highgpu-1g', 12, 85, 1, 'A100'),
    offer('a2-highgpu-4g', 48, 340, 4, 'A100', 'NVLink'),
  ],
};

/** An instance type a cloud offers, by name (any case). */
export const instanceType = (cloud: CloudPlatform, name: string): InstanceType | undefined =>
  INSTANCE_TYPES[cloud].find((t) => t.name.toLowerCase() === name.toLowerCase());

/** The category a request asks for: CPU or GPU. */
export function category(v: unknown): 'CPU' | 'GPU' {
  const c = str(v)?.toUpperCase();
  if (c !== 'CPU' && c !== 'GPU') throw invalid(`instanceCategory is CPU or GPU, not ${String(v)}`);
  return c;
}

/** The leading number of a quantity as requests give it (`32Gi`, `8`, `7.5`). */
const amount = (v: unknown): number | undefined => {
  const m = /^\s*(\d+(\.\d+)?)/.exec(str(v) ?? '');
  return m ? Number(m[1]) : undefined;
};

/** An instance type as a record of ml's `instanceType`: the catalogue's, read, never kept. */
const asRecord = (t: InstanceType): EngineRecord => readRecord({ id: t.name, name: t.name, doc: t }, '');

/** What RequestResourceInfo can ask of an instance type: at least an amount (none asked: 0), or a text within one. */
const AT_LEAST = ['cpu', 'memory', 'gpu', 'gpuMemory', 'computeCapability'] as const;
const LIKE = ['gpuModel', 'gpuType', 'interconnectType'] as const;

/** listRelevantInstances: the instance types of the environment's cloud, of a category, that offer at least what the request asks for. */
export function relevantTypes(h: Hook, req: Doc): EngineRecord[] {
  const env = h.world.environments.require(text(req.environmentName));
  const wanted = category(req.instanceCategory);
  const info = obj(req.requestInfo);
  const enough = (t: InstanceType): boolean =>
    AT_LEAST.every((f) => Number(t[f] ?? 0) >= (amount(info[f]) ?? 0)) &&
    LIKE.every((f) => (t[f] ?? '').toLowerCase().includes(str(info[f])?.toLowerCase() ?? ''));
  return INSTANCE_TYPES[env.cloudPlatform].filter((t) => t.category === wanted && enough(t)).map(asRecord);
}

/** listInstanceTypeConfiguration: one instance type of the environment's cloud, of the category asked for. */
export function typeNamed(h: Hook, req: Doc): EngineRecord[] {
  const env = h.world.environments.require(text(req.environmentName));
  const wanted = category(req.instanceCategory);
  const t = instanceType(env.cloudPlatform, text(req.instanceType));
  if (!t || t.category !== wanted)
    throw notFound(`${env.cloudPlatform} has no ${wanted} instance type ${text(req.instanceType)} for environment ${env.environmentName}`);
  return [asRecord(t)];
}
