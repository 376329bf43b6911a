/**
 * What environments and their FreeIPA do besides create, stop, start and
 * delete (ENVIRONMENT in ../../environments.ts), and how long it takes in
 * emulated minutes. The state names are the environment service's: its
 * environment statuses (`UPGRADE_CCM_ON_DATALAKE_IN_PROGRESS`,
 * `TRUST_SETUP_FINISH_REQUIRED`...) and FreeIPA's (`UPDATE_IN_PROGRESS`).
 *
 * Changes of the whole environment show in its status; FreeIPA's own work
 * (scaling, repair, upgrade, secret rotation...) runs on its own record while
 * the environment stays AVAILABLE, one operation at a time. Both record their
 * operations under the environment, so `operations describe` follows them.
 */
import { ENVIRONMENT } from '../../environments.js';
import type { ActionSpec, Lifecycle } from '../../engine/timeline.js';

const TRUST_STATES = ['TRUST_SETUP_FINISH_REQUIRED', 'TRUST_SETUP_FAILED', 'TRUST_SETUP_FINISH_FAILED', 'TRUST_REPAIR_FAILED'];

/** Changes of a whole environment: its status passes through their states. */
export const ENVIRONMENT_CHANGES: Lifecycle = {
  // A private cloud environment is registered with its Cloudera Manager; it has no FreeIPA to create.
  register: {
    phases: [
      ['CREATION_INITIATED', 0.5],
      ['ENVIRONMENT_VALIDATION_IN_PROGRESS', 1],
      ['ENVIRONMENT_INITIALIZATION_IN_PROGRESS', 2],
    ],
    success: 'AVAILABLE',
    failure: 'CREATE_FAILED',
    operation: 'CREATE',
  },
  upgradeccm: {
    from: ['AVAILABLE'],
    phases: [
      ['UPGRADE_CCM_VALIDATION_IN_PROGRESS', 0.5],
      ['UPGRADE_CCM_ON_FREEIPA_IN_PROGRESS', 3],
      ['UPGRADE_CCM_TUNNEL_UPDATE_IN_PROGRESS', 0.5],
      ['UPGRADE_CCM_ON_DATALAKE_IN_PROGRESS', 3],
      ['UPGRADE_CCM_ON_DATAHUB_IN_PROGRESS', 3],
    ],
    success: 'AVAILABLE',
    failure: 'UPGRADE_CCM_FAILED',
    operation: 'UPGRADE_CCM',
  },
  computecluster: {
    from: ['AVAILABLE'],
    phases: [['COMPUTE_CLUSTER_CREATION_IN_PROGRESS', 10]],
    success: 'AVAILABLE',
    failure: 'UPDATE_FAILED',
    operation: 'COMPUTE_CLUSTER_CREATION',
  },
  computereinit: {
    from: ['AVAILABLE'],
    phases: [['COMPUTE_CLUSTER_REINITIALIZATION_IN_PROGRESS', 8]],
    success: 'AVAILABLE',
    failure: 'UPDATE_FAILED',
    operation: 'COMPUTE_CLUSTER_REINITIALIZATION',
  },
  endpointgateway: {
    from: ['AVAILABLE'],
    phases: [
      ['UPDATE_INITIATED', 0.5],
      ['LOAD_BALANCER_ENV_UPDATE_STARTED', 2],
      ['LOAD_BALANCER_STACK_UPDATE_STARTED', 3],
    ],
    success: 'AVAILABLE',
    failure: 'LOAD_BALANCER_ENV_UPDATE_FAILED',
    operation: 'LOAD_BALANCER_UPDATE',
  },
  trustsetup: {
    from: ['AVAILABLE', 'TRUST_SETUP_FAILED'],
    phases: [
      ['TRUST_SETUP_VALIDATION_IN_PROGRESS', 0.5],
      ['TRUST_SETUP_IN_PROGRESS', 3],
    ],
    success: 'TRUST_SETUP_FINISH_REQUIRED',
    failure: 'TRUST_SETUP_FAILED',
    operation: 'TRUST_SETUP',
  },
  trustfinish: {
    from: ['TRUST_SETUP_FINISH_REQUIRED', 'TRUST_SETUP_FINISH_FAILED'],
    phases: [
      ['TRUST_SETUP_FINISH_VALIDATION_IN_PROGRESS', 0.5],
      ['TRUST_SETUP_FINISH_IN_PROGRESS', 2],
    ],
    success: 'AVAILABLE',
    failure: 'TRUST_SETUP_FINISH_FAILED',
    operation: 'TRUST_SETUP_FINISH',
  },
  trustcancel: {
    from: ['AVAILABLE', 'TRUST_CANCEL_FAILED', ...TRUST_STATES],
    phases: [
      ['TRUST_CANCEL_VALIDATION_IN_PROGRESS', 0.5],
      ['TRUST_CANCEL_IN_PROGRESS', 2],
    ],
    success: 'AVAILABLE',
    failure: 'TRUST_CANCEL_FAILED',
    operation: 'TRUST_CANCEL',
  },
  trustrepair: {
    from: ['AVAILABLE', 'TRUST_REPAIR_FAILED'],
    phases: [
      ['TRUST_REPAIR_VALIDATION_IN_PROGRESS', 0.5],
      ['TRUST_REPAIR_IN_PROGRESS', 2],
    ],
    success: 'AVAILABLE',
    failure: 'TRUST_REPAIR_FAILED',
    operation: 'TRUST_REPAIR',
  },
};

/** A FreeIPA operation: requested, then under way for `minutes`; it ends AVAILABLE or UPDATE_FAILED. */
const freeipaWork = (operation: string, minutes: number, from = ['AVAILABLE']): ActionSpec => ({
  from,
  phases: [
    ['UPDATE_REQUESTED', 0.5],
    ['UPDATE_IN_PROGRESS', minutes],
  ],
  success: 'AVAILABLE',
  failure: 'UPDATE_FAILED',
  operation,
});

/** FreeIPA's own operations (states of its own record, which shows AVAILABLE while none runs). */
export const FREEIPA: Lifecycle = {
  upscale: freeipaWork('UPSCALE', 8),
  downscale: freeipaWork('DOWNSCALE', 5),
  repair: freeipaWork('REPAIR', 6, ['AVAILABLE', 'UPDATE_FAILED']),
  upgrade: freeipaWork('UPGRADE', 15),
  verticalscale: freeipaWork('VERTICAL_SCALE', 6),
  rotatesecrets: freeipaWork('ROTATE_SECRETS', 3),
  imds: freeipaWork('UPDATE_IMDS', 2),
  saltupdate: freeipaWork('UPDATE_ORCHESTRATOR_STATE', 4),
};

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
export const ELSEWHERE: Lifecycle = { usersync: { phases: [] }, diagnostics: { phases: [] } };

/**
 * Every action of an environment and of its FreeIPA, in one list: the
 * `fail-<action>-` rule (lifecycle.ts) reads action names from the lifecycle
 * an action begins with, so an environment named `fail-upgrade-...` must find
 * `upgrade` whichever record begins its work (and its create succeed).
 */
export const ENVIRONMENT_WORK: Lifecycle = { ...ENVIRONMENT, ...ENVIRONMENT_CHANGES, ...FREEIPA, ...ELSEWHERE };
