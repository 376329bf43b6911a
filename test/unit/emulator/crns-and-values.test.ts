/**
 * Issue 28 item 3: identifiers and fixed values as the API writes them,
 * against one table: the resource facts. Every operation of each service
 * with facts runs against the emulator in this process (the every-operation
 * harness: plausible requests, values it answered used again); every CRN of
 * the account its answers hold is read, and every value of a field some
 * resource's facts list fixed `values` for (in that resource's shape, found
 * by walking each answer along its response shape). Each CRN's resource type
 * (crn:cdp:<service>:<region>:<account>:<type>:<id>) must be the `crnType`
 * of a resource in the facts of the service it names; each listed field's
 * values must be in its list, in exact case. CRNs of services without facts
 * yet are left out, and named.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap } from '../../../src/lib/emulator/bootstrap.js';
import { Emulator } from '../../../src/lib/emulator/server.js';
import type { Doc } from '../../../src/lib/emulator/types.js';
import type { Service } from '../../../src/lib/model/index.js';
import type { Type } from '../../../src/lib/model/shapes.js';
import { exerciseService } from '../../helpers/every-operation.js';
import { loadFacts, resourcesOf, WORLD } from '../../helpers/resource-facts.js';

const { have, lack, all } = await loadFacts();
/** Services whose CRNs name another (the workload API's resources are DataFlow's: crn:cdp:df:...). */
const CRN_SERVICE: Readonly<Record<string, string>> = { dfworkload: 'df' };
const dir = mkdtempSync(join(tmpdir(), 'cdpctl-crns-'));

/** The CRN types each service's facts allow, by the service a CRN names (its model name and its topic). */
const allowed = new Map<string, Set<string>>();
for (const r of resourcesOf(have)) {
  // The default is the format's (model/resources.ts): the resource's key as it is.
  const types = [r.facts.crnType ?? r.key, ...(r.facts.alsoMints ?? [])];
  for (const name of [r.of.svc.name, r.of.svc.topic, CRN_SERVICE[r.of.svc.name]])
    if (name) allowed.set(name, new Set([...(allowed.get(name) ?? []), ...types]));
}

/** Each field some facts list values for, by shape: shape -> field -> the values listed. */
const listed = new Map<string, Map<string, readonly string[]>>();
for (const r of resourcesOf(have))
  for (const [field, values] of Object.entries(r.facts.values ?? {}))
    listed.set(`${r.of.svc.name} ${r.facts.shape}`, (listed.get(`${r.of.svc.name} ${r.facts.shape}`) ?? new Map()).set(field, values));

/** Every CRN seen (`crn -> the operation whose answer held it first`) and every listed field's values seen. */
const crns = new Map<string, string>();
const seenValues = new Map<string, Map<string, string>>();
let account = '';

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

function collectCrns(v: unknown, where: string): void {
  if (typeof v === 'string') {
    if (v.startsWith('crn:') && v.split(':')[4] === account && !crns.has(v)) crns.set(v, where);
  } else if (Array.isArray(v)) for (const x of v) collectCrns(x, where);
  else if (isObject(v)) for (const x of Object.values(v)) collectCrns(x, where);
}

/** Walks an answer along its shape, noting the values of listed fields of the shapes the facts name. */
function collectValues(svc: Service, type: Type, v: unknown, where: string): void {
  const t = svc.shapes.resolve(type);
  if (t.kind === 'list' && t.of && Array.isArray(v)) for (const x of v) collectValues(svc, t.of, x, where);
  else if (t.kind === 'map' && t.of && isObject(v)) for (const x of Object.values(v)) collectValues(svc, t.of, x, where);
  const shape = svc.shapes.struct(t);
  if (!shape || !isObject(v)) return;
  const fields = listed.get(`${svc.name} ${shape.name}`);
  for (const f of shape.fields) {
    const value = v[f.name];
    if (value === undefined) continue;
    if (fields?.has(f.name)) {
      const key = `${svc.name} ${shape.name}.${f.name}`;
      const seen = seenValues.get(key) ?? new Map<string, string>();
      for (const x of Array.isArray(value) ? value : [value]) if (typeof x === 'string' && !seen.has(x)) seen.set(x, where);
      seenValues.set(key, seen);
    }
    collectValues(svc, f.type, value, where);
  }
}

beforeAll(async () => {
  const world = WORLD.flatMap((w) => all.filter((s) => s.name === w.service).map((service) => ({ service, operation: w.operation })));
  for (const { svc } of have) {
    const em = new Emulator({ dataDir: join(dir, svc.topic), timeScale: 1, requestLog: false });
    await em.start();
    try {
      await bootstrap(em, { HOME: dir });
      const env = em.call('environments', 'describeEnvironment', { environmentName: 'sales-env' }) as { environment: { crn: string } };
      account = env.environment.crn.split(':')[4] ?? '';
      // Every answer the harness gets, read on its way back.
      const call = em.call.bind(em);
      em.call = (service: string, operation: string, request: unknown): Doc => {
        const answer = call(service, operation, request);
        const of = all.find((s) => s.name === service);
        collectCrns(answer, `${service} ${operation}`);
        if (of) collectValues(of, { kind: 'ref', ref: of.operation(operation).output }, answer, `${service} ${operation}`);
        return answer;
      };
      exerciseService(em, svc, { name: 'sales-env', crn: env.environment.crn }, svc.name === 'datalake' ? [] : world);
    } finally {
      await em.stop();
    }
  }
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Services whose CRNs are known to carry a type their facts lack, and why (reported to the service's owner). */
const KNOWN_CRNS: Readonly<Record<string, string>> = {};

/** Listed values known to disagree with the emulator, and why (reported to the service's owner). */
const KNOWN: Readonly<Record<string, string>> = {};

/** Services of the control plane that CRNs name and the model has no service for. */
const CONTROL_PLANE = ['freeipa', 'redbeams'];

/** A CRN's service and resource type. */
const partsOf = (crn: string): { service: string; type: string } => {
  const p = crn.split(':');
  return { service: p[2] ?? '', type: p[5] ?? '' };
};

describe('every CRN the emulator mints carries a resource type of its service facts', () => {
  test('CRNs were seen for the services with facts', () => {
    const services = new Set([...crns.keys()].map((c) => partsOf(c).service));
    expect([...services].filter((s) => allowed.has(s)).length).toBeGreaterThan(0);
  });

  const crnsOf = (name: string): void => {
    const svc = all.find((s) => s.name === name);
    const names = [name, svc?.topic, CRN_SERVICE[name]];
    const types = new Set(names.flatMap((n) => [...(allowed.get(n ?? '') ?? [])]));
    const wrong = [...crns]
      .filter(([c]) => names.includes(partsOf(c).service) && !types.has(partsOf(c).type))
      .map(([c, where]) => `${c} (in ${where}'s answer): ${partsOf(c).type} is not among ${[...types].join(', ')}`);
    expect(wrong).toEqual([]);
  };
  for (const h of have.filter((x) => KNOWN_CRNS[x.svc.name]))
    test.failing(`${h.svc.name} (known: ${KNOWN_CRNS[h.svc.name] ?? ''})`, () => crnsOf(h.svc.name));
  const open = have.filter((x) => KNOWN_CRNS[x.svc.name] === undefined).map((h) => [h.svc.name]);
  if (open.length > 0) test.each(open)('%s', (name) => crnsOf(name));

  test("the CRNs left out are those of services without facts yet, or of the control plane's own services (named here)", () => {
    const skipped = [...new Set([...crns.keys()].map((c) => partsOf(c).service).filter((s) => !allowed.has(s)))].sort();
    if (skipped.length > 0) process.stderr.write(`CRNs of services without facts, not checked: ${skipped.join(', ')}\n`);
    // A CRN naming a service neither of the model nor one the control plane is known to name (FreeIPA, the database
    // servers of data lakes) would escape the check unnoticed.
    expect(skipped.filter((s) => !lack.some((l) => l.name === s || l.topic === s) && !CONTROL_PLANE.includes(s))).toEqual([]);
  });
});

describe("every value of a field the facts list values for is in the list, in the API's case", () => {
  const fields = [...listed].flatMap(([shape, f]) => [...f.keys()].map((field) => [`${shape}.${field}`] as const));
  if (fields.length === 0) test.todo('no resource facts list fixed values yet');
  // Disagreements known and reported, each with its reason: the test is expected to fail until the facts (or the
  // emulator) change, and then fails itself, so the entry must go.
  const check = (key: string): void => {
    const [svcName = '', shapeField = ''] = key.split(' ');
    const [shape = '', field = ''] = shapeField.split('.');
    const values = listed.get(`${svcName} ${shape}`)?.get(field) ?? [];
    const wrong = [...(seenValues.get(key) ?? [])].filter(([v]) => !values.includes(v)).map(([v, where]) => `${v} (in ${where}'s answer)`);
    expect(wrong).toEqual([]);
  };
  for (const [key] of fields) if (KNOWN[key]) test.failing(`${key} (known: ${KNOWN[key] ?? ''})`, () => check(key));
  const open = fields.filter(([key]) => KNOWN[key] === undefined);
  if (open.length > 0) test.each(open)('%s', (key) => check(key));
});
