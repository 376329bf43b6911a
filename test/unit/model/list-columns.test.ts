/**
 * A list table shows what its resource's describe command needs: for every
 * `... list` operation with a `describe` (or `get`) beside it, the default
 * table columns include a field that gives the describe command's
 * identifying flag (the same name, or `crn`/`name`/`id` for a `...Crn`,
 * `...Name`, `...Id` flag), unless the list command itself takes that flag.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { loadAllServices, type Operation, type Service } from '../../../src/lib/model/index.js';

let services: Service[];

beforeAll(async () => {
  services = await loadAllServices();
});

/** Lists whose identifier column has another name, with why. */
const SAME_VALUE: Readonly<Record<string, string>> = {
  // An item's `name` is the instance type describe takes.
  'ml instance-types list': 'name',
  // describe takes the set's name or CRN; both are columns.
  'datahub custom-configurations list': 'name',
};

const last = (path: string): string => (path.split('.').pop() ?? path).toLowerCase();

function gives(need: string, path: string): boolean {
  const n = need.toLowerCase();
  const p = last(path);
  return p === n || (n.includes('crn') && p === 'crn') || (n.endsWith('name') && p === 'name') || (n.endsWith('id') && p === 'id');
}

/** The describe flags a list must give: required fields, else the fields of its one-of rule, less what the list takes itself. */
function needs(svc: Service, list: Operation, desc: Operation): { fields: string[]; any: boolean } {
  const listFields = new Set(svc.requestFields(list).map((f) => f.name));
  let fields = svc
    .requestFields(desc)
    .filter((f) => f.required)
    .map((f) => f.name);
  let any = false;
  if (fields.length === 0) {
    const rule = (desc.cli.rules ?? []).find((r) => r.kind === 'oneOf' || r.kind === 'anyOf');
    fields = rule && 'fields' in rule ? [...rule.fields] : [];
    any = true;
  }
  return { fields: fields.filter((f) => !listFields.has(f)), any };
}

describe('list tables', () => {
  test('every list with a describe shows the identifier describe needs', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const svc of services) {
      const ops = svc.operations();
      for (const list of ops) {
        const words = list.cli.command.split(' ');
        if (words[words.length - 1] !== 'list') continue;
        const resource = words.slice(0, -1).join(' ');
        const desc = ops.find((o) => {
          const w = o.cli.command.split(' ');
          return w.slice(0, -1).join(' ') === resource && ['describe', 'get'].includes(w[w.length - 1] ?? '');
        });
        if (!desc) continue;
        checked++;
        const columns = Object.values(list.cli.columns ?? {});
        const same = SAME_VALUE[list.commandId];
        if (same) {
          if (!columns.some((c) => last(c) === same)) problems.push(`${list.commandId}: no ${same} column`);
          continue;
        }
        const { fields, any } = needs(svc, list, desc);
        const missing = fields.filter((f) => !columns.some((c) => gives(f, c)));
        if (any ? fields.length > 0 && missing.length === fields.length : missing.length > 0) {
          problems.push(`${list.commandId}: columns [${columns.join(', ')}] give none of ${missing.join(', ')} for ${desc.commandId}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });

  test('compute clusters list shows the cluster CRN that clusters describe takes', () => {
    const compute = services.find((s) => s.topic === 'compute');
    const list = compute?.findByCommand('compute clusters list');
    expect(Object.values(list?.cli.columns ?? {})).toContain('clusterCrn');
  });
});
