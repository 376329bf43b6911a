/**
 * How long what environments and their FreeIPA do takes, in emulated
 * minutes; the states are the model's (its resource facts).
 *
 * Changes of the whole environment show in its status; FreeIPA's own work
 * (scaling, repair, upgrade, secret rotation...) is work beside the
 * environment (a record of its own each: freeipa.ts) while the environment
 * stays AVAILABLE, one operation at a time. Both record their
 * operations under the environment, so `operations describe` follows them.
 */
import { resources as facts } from '../../../model/services/environments/resources.js';
import { lifecycleOf } from '../../engine/derive.js';
import type { Lifecycle } from '../../engine/timeline.js';

/**
 * The minutes of each state of an environment's actions (the table's
 * `environment` resource). A private cloud environment is registered with
 * its Cloudera Manager: it has no FreeIPA to create.
 */
export const ENVIRONMENT_MINUTES = {
  create: [0.5, 1, 2, 8],
  register: [0.5, 1, 2],
  stop: [2, 3, 2],
  start: [3, 4, 2],
  delete: [0.5, 3, 1.5],
  upgradeccm: [0.5, 3, 0.5, 3, 3],
  computecluster: [10],
  computereinit: [8],
  endpointgateway: [0.5, 2, 3],
  trustsetup: [0.5, 3],
  trustfinish: [0.5, 2],
  trustcancel: [0.5, 2],
  trustrepair: [0.5, 2],
} as const;

/** FreeIPA's own work (beside its environment; FreeIPA shows AVAILABLE while none runs): requested, then under way for these minutes. */
export const FREEIPA_MINUTES = {
  upscale: [0.5, 8],
  downscale: [0.5, 5],
  repair: [0.5, 6],
  upgrade: [0.5, 15],
  verticalscale: [0.5, 6],
  rotatesecrets: [0.5, 3],
  imds: [0.5, 2],
  saltupdate: [0.5, 4],
} as const;

const FREEIPA: Lifecycle = lifecycleOf(facts.resources.freeipa, FREEIPA_MINUTES);

/** What each action is called in messages ("... needs it AVAILABLE"). */
export const ACTION_WORDS: Readonly<Record<string, string>> = {
  upgradeccm: 'a CCM upgrade',
  computecluster: 'a compute cluster',
  computereinit: 'a compute cluster',
  endpointgateway: 'an endpoint access gateway update',
  trustsetup: 'a trust setup',
  trustfinish: 'finishing a trust setup',
  trustcancel: 'cancelling a trust',
  trustrepair: 'a trust repair',
  upscale: 'a FreeIPA upscale',
  downscale: 'a FreeIPA downscale',
  repair: 'a FreeIPA repair',
  upgrade: 'a FreeIPA upgrade',
  verticalscale: 'FreeIPA vertical scaling',
  rotatesecrets: 'a FreeIPA secret rotation',
  imds: 'a FreeIPA IMDS update',
  saltupdate: 'a FreeIPA orchestrator state update',
};

/**
 * Work in an environment kept on records of its own (a user sync, a log
 * collection): never begun on the environment, but failing by the
 * environment's name as its actions do (`fail-usersync-...`).
 */
const ELSEWHERE: Lifecycle = { usersync: { phases: [] }, diagnostics: { phases: [] } };

/** The environment's own actions. */
export const ENVIRONMENT: Lifecycle = lifecycleOf(facts.resources.environment, ENVIRONMENT_MINUTES);

/** Every action of an environment and of its FreeIPA, in one list (what FreeIPA's work starts from, by kind). */
export const ENVIRONMENT_WORK: Lifecycle = { ...ENVIRONMENT, ...FREEIPA, ...ELSEWHERE };

/** The actions of other records an environment's `fail-<action>-` name names (its resource's `failsFor`). */
export const NOT_ITS_OWN: readonly string[] = [...Object.keys(FREEIPA), ...Object.keys(ELSEWHERE)];
