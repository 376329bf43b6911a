/**
 * Consumption: compute usage computed from how long things ran on the
 * emulator clock. What runs: each environment's FreeIPA, what lives in
 * environments and runs (data lakes, Data Hubs, and every resource of the
 * engine that can be stopped or started or is up once made: databases,
 * warehouses, workspaces...; world.ts), and compute clusters. A record runs
 * from the start of each action that does not take it down (create, start,
 * resume, upgrade...) until the next action, or until that action ended when
 * it failed or left it down; stopping, suspending and deleting take it down
 * from their start. So a cluster made at 10:00 and stopped at 13:30 ran
 * exactly 3.5 hours. Records that keep only their current action (data
 * lakes, Data Hubs, compute clusters, environments) are read as having run
 * since they were made unless that action started them again.
 *
 * Records are aggregated hourly, as the API's are: one a running thing and
 * clock hour of the range (its part of the hour in the range), `hours` the
 * time it ran in it, `quantity` its instance hours (hours x instances), and
 * its charge at the list rate of its kind. A page reads only the hours it
 * shows, so a long range costs no more than a short one.
 */
import type { OperationName } from '../../../model/services/consumption/wire.js';
import { resources } from '../../../model/services/consumption/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { code, defineService } from '../../engine/table.js';
import { invalid } from '../../errors.js';
import { paged, type Listing } from '../../engine/paging.js';
import { docs, iso, obj, str } from '../../values.js';
import type { RunView } from '../../world/contracts.js';

const HOUR = 3_600_000;
/** Positions in a listing: an hour's records are numbered after the hour (hour x SLOTS + source). */
const SLOTS = 1_000_000;

/** The service feature, cluster type and list rate (credits an instance hour) of each kind of thing that runs. */
const KINDS: Readonly<Record<string, { feature: string; type?: string; rate: number }>> = {
  environments: { feature: 'FREEIPA', type: 'FREEIPA', rate: 0.08 },
  datalake: { feature: 'DATALAKE', type: 'DATALAKE', rate: 0.36 },
  datahub: { feature: 'DATAHUB', type: 'DATAHUB', rate: 0.72 },
  compute: { feature: 'COMPUTE_CLUSTER', type: 'COMPUTE_CLUSTER', rate: 0.4 },
  dw: { feature: 'DATA_WAREHOUSE', rate: 0.9 },
  ml: { feature: 'MACHINE_LEARNING', rate: 0.8 },
  de: { feature: 'DATA_ENGINEERING', rate: 0.8 },
  opdb: { feature: 'OPERATIONAL_DATABASE', rate: 0.6 },
  df: { feature: 'DATA_FLOW', rate: 0.6 },
  dfworkload: { feature: 'DATA_FLOW', rate: 0.6 },
};

/** FreeIPA's instance type in each cloud. */
const FREEIPA_TYPE: Readonly<Record<string, string>> = { AWS: 'm5.large', AZURE: 'Standard_D2s_v3', GCP: 'e2-standard-4' };

/** Something that ran, as usage records show it. */
interface Source {
  readonly service: string;
  readonly name: string;
  readonly crn?: string;
  readonly clusterType: string;
  readonly env: { readonly name?: string; readonly crn?: string; readonly cloud?: string };
  readonly runs: readonly RunView[];
  readonly instanceType?: string;
  readonly instanceCount: number;
  readonly tags?: Doc;
  readonly template?: string;
}

/** The instances of a stored record: its instance groups' (data lakes, Data Hubs), or the type and node count its document gives. */
function instancesOf(record: unknown): { type?: string; count: number } {
  const r = obj(record);
  const groups = docs(r.groups ?? r.instanceGroups);
  if (groups.length > 0) {
    const byType = new Map<string, number>();
    for (const g of groups) {
      const instances = docs(g.instances);
      const count = typeof g.nodeCount === 'number' ? g.nodeCount : instances.length;
      const type = str(g.instanceType) ?? str(instances[0]?.instanceVmType) ?? str(instances[0]?.instanceType) ?? '';
      byType.set(type, (byType.get(type) ?? 0) + count);
    }
    const [type] = [...byType.entries()].sort((a, b) => b[1] - a[1])[0] ?? [''];
    const count = [...byType.values()].reduce((n, c) => n + c, 0);
    return { type, count: Math.max(1, count) };
  }
  const type = Object.entries(r).find(([k, v]) => /instanceType$/i.test(k) && typeof v === 'string')?.[1] as string | undefined;
  const count = ['nodeCount', 'instanceCount', 'numberOfNodes', 'nodes', 'workerCount'].map((k) => r[k]).find((v) => typeof v === 'number');
  return { type, count: typeof count === 'number' && count > 0 ? count : 1 };
}

/** A record's user tags as a map: from `[{key, value}]`, `{userDefined: {...}}` or a plain map. */
function tagsOf(record: unknown): Doc | undefined {
  const tags = obj(record).tags;
  if (Array.isArray(tags)) {
    const out = Object.fromEntries(docs(tags).map((t) => [String(t.key), t.value]));
    return Object.keys(out).length > 0 ? out : undefined;
  }
  const map = obj(obj(tags).userDefined ?? tags);
  return Object.keys(map).length > 0 ? map : undefined;
}

/** Any other kind: its service's name, at the default rate. */
const kindOf = (service: string) => KINDS[service] ?? { feature: service.toUpperCase(), rate: 0.5 };

/** Everything of the account that runs, in a stable order: by when it first ran, then by name. */
function sources(h: Hook): Source[] {
  const out: Source[] = [];
  for (const e of h.world.environments.all()) {
    const env = { name: e.environmentName, crn: e.crn, cloud: e.cloudPlatform };
    const freeipa = h.world.environments.freeipaRuns(e.crn);
    if (freeipa)
      out.push({
        service: 'environments',
        name: `${e.environmentName}-freeipa`,
        crn: e.crn.replace(':environments:', ':freeipa:').replace(':environment:', ':freeipa:'),
        clusterType: 'FREEIPA',
        env,
        runs: freeipa.runs,
        instanceType: FREEIPA_TYPE[e.cloudPlatform],
        instanceCount: freeipa.instances,
        tags: tagsOf(e),
      });
    for (const d of h.ctx.world.inEnvironment(h.ctx, e.crn)) {
      const running = d.running?.();
      if (!running) continue;
      const inst = instancesOf(running.record);
      const noun = d.what.slice(0, d.what.length - running.name.length).trim();
      out.push({
        service: d.service,
        name: running.name,
        crn: running.crn,
        clusterType: kindOf(d.service).type ?? noun.toUpperCase().replace(/[^A-Z0-9]+/g, '_'),
        env,
        runs: running.runs,
        instanceType: inst.type,
        instanceCount: inst.count,
        tags: tagsOf(running.record),
        template: str(obj(running.record).clusterTemplateName),
      });
    }
  }
  // Compute clusters live in environments the world does not follow them into: as compute tells them (world/contracts.ts).
  for (const c of h.world.computeClusters.all())
    out.push({
      service: 'compute',
      name: c.name,
      crn: c.crn,
      clusterType: 'COMPUTE_CLUSTER',
      env: { name: c.environmentName, crn: c.environmentCrn, cloud: c.cloudPlatform },
      runs: c.runs,
      instanceCount: 1,
      tags: tagsOf({ tags: c.tags }),
    });
  const first = (s: Source): number => s.runs[0]?.from ?? Number.MAX_SAFE_INTEGER;
  return out.filter((s) => s.runs.length > 0).sort((a, b) => first(a) - first(b) || a.name.localeCompare(b.name));
}

/** The usage record of a source in a window of one clock hour, if it ran in it. */
function usage(s: Source, from: number, to: number): Doc | undefined {
  let ran = 0;
  for (const r of s.runs) ran += Math.max(0, Math.min(r.to, to) - Math.max(r.from, from));
  if (ran <= 0) return undefined;
  const k = kindOf(s.service);
  const hours = ran / HOUR;
  const quantity = hours * s.instanceCount;
  const record: Doc = {
    quantityType: 'INSTANCE_USAGE',
    environmentName: s.env.name,
    environmentCrn: s.env.crn,
    clusterName: s.name,
    clusterCrn: s.crn,
    cloudProvider: s.env.cloud,
    serviceFeature: k.feature,
    usageStartTimestamp: iso(from),
    usageEndTimestamp: iso(to),
    quantity,
    grossCharge: Math.round(quantity * k.rate * 1e6) / 1e6,
    listRate: k.rate,
    hours,
    instanceType: s.instanceType,
    instanceCount: s.instanceCount,
    clusterType: s.clusterType,
    userTags: s.tags && JSON.stringify(s.tags),
    clusterTemplate: s.template,
  };
  // What a source does not know (no CRN, no instance type) is left out, not sent empty.
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined && v !== ''));
}

/** The usage records of [from, to), hour by hour, each hour's in source order; hours nothing ran in are skipped over. */
function usageListing(all: readonly Source[], from: number, to: number): Listing<Doc> {
  /** The first hour from `hour` on in which something ran, if any. */
  const nextHour = (hour: number): number | undefined => {
    let next: number | undefined;
    for (const s of all)
      for (const r of s.runs)
        if (r.to > hour * HOUR && r.from < to) {
          const h = Math.max(hour, Math.floor(r.from / HOUR));
          if (next === undefined || h < next) next = h;
        }
    return next;
  };
  return {
    read: (after, count) => {
      const out: Array<{ item: Doc; position: number }> = [];
      let hour: number | undefined = after === 0 ? Math.floor(from / HOUR) : Math.floor((after - 1) / SLOTS);
      for (hour = nextHour(hour); hour !== undefined && hour * HOUR < to; hour = nextHour(hour + 1))
        for (const [i, s] of all.entries()) {
          const position = hour * SLOTS + i + 1;
          if (position <= after) continue;
          const item = usage(s, Math.max(hour * HOUR, from), Math.min((hour + 1) * HOUR, to));
          if (item) out.push({ item, position });
          if (out.length === count) return out;
        }
      return out;
    },
  };
}

/** The usage records of a time range, paged; a range into the future ends now (usage is known up to now). */
function listComputeUsageRecords(h: Hook, req: Doc): Doc {
  const from = Date.parse(String(req.fromTimestamp));
  const to = Date.parse(String(req.toTimestamp));
  if (Number.isNaN(from) || Number.isNaN(to)) throw invalid('fromTimestamp and toTimestamp must be times, e.g. 2024-05-01T00:00:00Z');
  if (from > to) throw invalid('fromTimestamp must not be after toTimestamp');
  return paged(h.ctx, req, usageListing(sources(h), from, Math.min(to, h.ctx.clock.now())));
}

/** Usage is computed, never kept: no resources, one code entry (a listing of what every service ran, hour by hour). */
export default defineService<OperationName>()({
  service: 'consumption',
  facts: resources,
  resources: {},
  operations: () => ({ listComputeUsageRecords: code(listComputeUsageRecords) }),
});
