// The operations that create, describe, list and delete each resource of a
// service's resource facts (src/lib/model/services/<topic>/resources.ts),
// and start each action of its lifecycle: the engine's declarations where
// the service has them, else the model's names and shapes. Read by the docs
// generator (the deletion table of docs/emulator-services.md) and by the
// tests that drive every resource (test/helpers/resource-facts.ts), so that
// the table names the operations the tests drive. It takes the model's
// Service and the emulator's Engine as arguments, from dist or src alike.

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/** The nouns a resource's operations are named with: its key, and its shape's name without a suffix (`DatabaseDetails`). */
function nounsOf(key, facts) {
  const fromShape = facts.shape.replace(/^Describe/, '').replace(/(Details|Summary|Response|Info|Detail|Description|Object)$/, '');
  return [...new Set([cap(key), fromShape])];
}

/** Whether a type is the shape (`list`: a list of it). */
function isShape(t, shape, list) {
  if (list) return t.kind === 'list' && t.of !== undefined && isShape(t.of, shape, false);
  return t.kind === 'ref' && t.ref === shape;
}

/** Where an operation's answer holds a shape: '' (the answer is it), or the field that is (or lists) it; undefined: nowhere. */
export function placeIn(svc, operation, shape, list = false) {
  const op = svc.operation(operation);
  if (!list && op.output === shape) return '';
  const out = svc.shapes.struct({ kind: 'ref', ref: op.output });
  return out?.fields.find((f) => isShape(f.type, shape, list))?.name;
}

/** Prefers the plainest of several names: `create<Noun>`, then one for AWS (the emulator's environments are on AWS). */
const plainest = (names, plain) => names.find((n) => plain.includes(n)) ?? names.find((n) => /aws/i.test(n)) ?? [...names].sort()[0];

/**
 * A resource's operations: `{ create, describe, list, delete, alsoDeletes, actions: { <action>: <operation> } }`
 * (each may be absent; alsoDeletes: the other operations its facts' `deletedBy` names).
 */
export function resourceOperations(svc, engine, key, facts) {
  const nouns = nounsOf(key, facts);
  const byVerb = new Map();
  const actions = {};
  for (const [op, b] of engine?.model.bindings ?? []) {
    if (b.resource !== key) continue;
    const verb = typeof b.verb === 'object' ? ('action' in b.verb ? `action:${b.verb.action}` : 'other') : b.verb;
    byVerb.set(verb, [...(byVerb.get(verb) ?? []), op]);
    if (verb.startsWith('action:')) actions[verb.slice(7)] ??= op;
    else if (verb === 'update') actions[b.action ?? 'update'] ??= op;
  }
  const named = (prefixes) =>
    nouns.flatMap((n) => prefixes.map((p) => `${p}${n}`)).filter((name) => svc.has(name) && !svc.operation(name).composed);
  // An operation that answers a new record's CRN or id (`restoreBackup` answers restoreCrn: it makes a restore).
  const makes = (prefixes) =>
    svc
      .operations()
      .filter((op) => op.mutating && !op.composed && prefixes.some((p) => op.name.startsWith(p)))
      .filter((op) => [`${key}Crn`, `${key}Id`].some((f) => svc.shapes.struct({ kind: 'ref', ref: op.output })?.byName.has(f)))
      .map((op) => op.name);
  const actionNames = Object.keys(facts.lifecycle ?? {}).filter((a) => a !== 'delete');
  // A service is deleted by disabling it (de disableService).
  // The delete first: of several creates, the one named as it is (setRuntimeImage for deleteRuntimeImage) is paired with it.
  // Where none is named for it, the first operation its facts say deletes it (datahub's deleteRecipes).
  const del =
    byVerb.get('delete')?.[0] ??
    named(['delete', 'drop', 'remove', 'terminate', 'deregister', 'disable'])[0] ??
    Object.keys(facts.deletedBy ?? {}).find((op) => facts.deletedBy[op] === 'itself');
  const deletes = del?.replace(/^(delete|drop|remove|terminate|deregister|disable)/, '');
  const creates = byVerb.get('create') ?? [];
  const create =
    named(['create'])[0] ??
    (deletes ? creates.find((c) => c.endsWith(deletes)) : undefined) ??
    (deletes
      ? svc
          .operations()
          .map((op) => op.name)
          .filter((n) => n.endsWith(deletes) && /^(create|set|add|register|put)[A-Z]/.test(n) && !svc.operation(n).composed)
          .sort((a, b) => a.length - b.length)[0]
      : undefined) ??
    plainest(creates, named(['create'])) ??
    plainest(named(['create', 'add', 'register', 'createAWS', 'createAws']), named(['create'])) ??
    makes(['create', 'add', 'register', ...actionNames])[0] ??
    // Last, any change that answers a new record's id (audit's archiveAuditEvents answers a task's taskId).
    makes(['']).filter((n) => !/^(delete|drop|remove|terminate|deregister|disable|revoke|update|cancel)/.test(n))[0];
  const readers = (byVerb.get('read') ?? []).filter((op) => placeIn(svc, op, facts.shape) !== undefined);
  const describe =
    readers.find((op) => /^(describe|get)/.test(op)) ??
    readers[0] ??
    svc
      .operations()
      .filter(
        (op) => !op.mutating && !op.composed && /^(describe|get)|Status$/.test(op.name) && placeIn(svc, op.name, facts.shape) !== undefined,
      )
      .map((op) => op.name)
      // describe and get first (the shortest name), then a status read that answers it (`backupDatalakeStatus`).
      .sort((a, b) => Number(!/^(describe|get)/.test(a)) - Number(!/^(describe|get)/.test(b)) || a.length - b.length)[0];
  const plural = nouns.flatMap((n) => [`list${n}s`, `list${n.replace(/y$/, 'ie')}s`, `list${n}es`]).find((n) => svc.has(n));
  const list =
    byVerb.get('list')?.[0] ??
    // Named for it first: of the lists that show a Credential, listCredentials (not listAuditCredentials).
    plural ??
    svc
      .operations()
      .filter((op) => !op.composed && /^list/.test(op.name) && placeIn(svc, op.name, facts.shape, true) !== undefined)
      .map((op) => op.name)[0];
  for (const action of Object.keys(facts.lifecycle ?? {})) {
    if (action === 'create' && create) actions.create ??= create;
    else if (action === 'delete' && del) actions.delete ??= del;
    else actions[action] ??= named([action])[0] ?? makes([action])[0] ?? '';
    if (!actions[action]) delete actions[action];
  }
  const out = { actions };
  if (create) out.create = create;
  if (describe) out.describe = describe;
  if (list) out.list = list;
  if (del) out.delete = del;
  // The other operations that end it, or a relation it holds, as its delete does.
  const also = Object.keys(facts.deletedBy ?? {}).filter((op) => op !== del);
  if (also.length > 0) out.alsoDeletes = also;
  return out;
}
