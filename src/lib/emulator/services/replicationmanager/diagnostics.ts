/**
 * Diagnostic bundles of policies: a Cloudera Manager command on the
 * policy's cluster that collects the logs of its jobs. While it runs its
 * bundle is IN_PROGRESS; then the bundle (a zip) can be downloaded here
 * (DOWNLOADABLE_WITH_CLI) or from its result URL. A bundle of a policy named
 * `fail-...` fails.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { failedPrecondition } from '../../errors.js';
import { iso, obj } from '../../values.js';
import type { WorldCluster } from './provides.js';
import { hasRun, jobLines } from './policies.js';
import { clusterByCrn, managerUrl, reachable, type R } from './sites.js';

type Rec = Readonly<EngineRecord>;

/** The policy a collection is of, on a running cluster; it has to have run at least once. */
function policyOf(h: Hook<R>, rec: Rec, req: Doc): { readonly policy: EngineRecord; readonly cluster: WorldCluster } {
  const cluster = reachable(clusterByCrn(h, rec.scope), 'a diagnostic bundle');
  const policy = h.records('policy').get(String(req.policyName), rec.scope, `cluster ${cluster.name}`);
  if (!hasRun(h, policy)) throw failedPrecondition(`policy ${nameOf(policy)} has no job runs yet; its bundle would collect their logs`);
  return { policy, cluster };
}

/** A new collection: of a policy on a running cluster that has run at least once. */
export const checkCollection = (h: Hook<R>, rec: Rec, req: Doc): void => void policyOf(h, rec, req);

/** What a new collection shows: its policy's name, when it started and where its result will be. */
export function fillCollection(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const { policy, cluster } = policyOf(h, rec, req);
  return {
    name: policy.name,
    startTime: iso(h.ctx.clock.now()),
    // It ends when it ends (commandView says when).
    endTime: undefined,
    resultDataUrl: `${managerUrl(cluster).replace(/home\/$/, '')}command/${rec.id}/download`,
  };
}

/** The command as getCommandStatus (and collectDiagnosticBundle) show it. */
export function commandView(h: Hook<R>, rec: Rec): Doc {
  const commands = h.records('command');
  const p = commands.progress(rec);
  const why = `collecting the bundle failed on purpose: policy ${String(rec.doc.name)} is named "fail-..."`;
  return {
    ...commands.view(rec),
    active: !p.done,
    ...(p.done ? { success: p.succeeded, endTime: iso(p.endsAt) } : {}),
    resultMessage: !p.done ? 'collecting the diagnostic bundle' : p.failed ? why : 'diagnostic bundle collected',
    bundleStatusMessage: !p.done
      ? 'the bundle is being collected'
      : p.failed
        ? `no bundle was made: ${why}`
        : 'download the bundle with download-diagnostic-bundle, or from its result URL',
  };
}

// ---- the bundle: a zip of text files ----------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const b of data) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Little-endian fields of a zip header, each [bytes, value]. */
const le = (...fields: ReadonlyArray<readonly [2 | 4, number]>): Buffer =>
  Buffer.concat(
    fields.map(([bytes, v]) => {
      const b = Buffer.alloc(bytes);
      if (bytes === 2) b.writeUInt16LE(v);
      else b.writeUInt32LE(v);
      return b;
    }),
  );

/** A zip of files, stored (not compressed): what `unzip` reads. Versions 2.0; no times, flags, attributes or comments. */
function zip(files: ReadonlyArray<readonly [name: string, text: string]>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of files) {
    const [data, fileName] = [Buffer.from(text, 'utf8'), Buffer.from(name, 'utf8')];
    // A file's checksum, sizes (stored: both the same), name length and no extra field, as both of its headers carry them.
    const facts = le([4, crc32(data)], [4, data.length], [4, data.length], [2, fileName.length], [2, 0]);
    const local = Buffer.concat([le([4, 0x04034b50], [2, 20], [2, 0], [2, 0], [2, 0], [2, 0]), facts]);
    const entry = [
      le([4, 0x02014b50], [2, 20], [2, 20], [2, 0], [2, 0], [2, 0], [2, 0]),
      facts,
      le([2, 0], [2, 0], [2, 0], [4, 0], [4, offset]),
    ];
    locals.push(local, fileName, data);
    central.push(...entry, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const dir = Buffer.concat(central);
  const end = le([4, 0x06054b50], [2, 0], [2, 0], [2, files.length], [2, files.length], [4, dir.length], [4, offset], [2, 0]);
  return Buffer.concat([...locals, dir, end]);
}

/** downloadDiagnosticBundle: the bundle, once it can be downloaded here. */
export function bundle(h: Hook<R>, rec: Rec): Doc {
  const commands = h.records('command');
  commands.require(rec, ['DOWNLOADABLE_WITH_CLI'], 'a download');
  // The policy it was collected of, by the name it was asked by.
  const policy = h.records('policy').find(String(obj(rec.data?.request).policyName ?? rec.doc.name), rec.scope);
  const files: Array<readonly [string, string]> = [
    ['README.txt', `Diagnostic bundle ${rec.id} of replication policy ${String(rec.doc.name)}, collected ${String(rec.doc.startTime)}.\n`],
    ...(policy
      ? ([
          ['policy.json', `${JSON.stringify(h.records('policy').view(policy), null, 2)}\n`],
          ['jobs.log', `${jobLines(h, policy).join('\n')}\n`],
        ] as const)
      : []),
  ];
  return { bundleFile: zip(files).toString('base64') };
}
