/**
 * oclif's explicit command map. Hand-written commands are listed here; every
 * model operation answers through a class made on demand from its id, so a
 * run imports only what that one command needs. When the manifest is built
 * (CDPCTL_DESCRIBE_COMMANDS=1) every operation gets its fully described class.
 */
import type { Command } from '@oclif/core';
import Api from './commands/api.js';
import AuthStatus from './commands/auth/status.js';
import Autocomplete from './commands/autocomplete.js';
import Configure from './commands/configure/index.js';
import ConfigureGet from './commands/configure/get.js';
import ConfigureList from './commands/configure/list.js';
import ConfigureSet from './commands/configure/set.js';
import ConfigureUnset from './commands/configure/unset.js';
import EmulatorClock from './commands/emulator/clock.js';
import EmulatorExport from './commands/emulator/export.js';
import EmulatorImport from './commands/emulator/import.js';
import EmulatorLog from './commands/emulator/log.js';
import EmulatorReset from './commands/emulator/reset.js';
import EmulatorStart from './commands/emulator/start.js';
import EmulatorStatus from './commands/emulator/status.js';
import EmulatorStop from './commands/emulator/stop.js';
import Login from './commands/login.js';
import Logout from './commands/logout.js';
import { describedOperationCommand, oclifId, operationCommand } from './lib/cli/operation-command.js';
import { loadAllServices } from './lib/model/index.js';

const HANDWRITTEN: Record<string, Command.Class> = {
  api: Api,
  'auth:status': AuthStatus,
  autocomplete: Autocomplete,
  configure: Configure,
  'configure:get': ConfigureGet,
  'configure:list': ConfigureList,
  'configure:set': ConfigureSet,
  'configure:unset': ConfigureUnset,
  'emulator:clock': EmulatorClock,
  'emulator:export': EmulatorExport,
  'emulator:import': EmulatorImport,
  'emulator:log': EmulatorLog,
  'emulator:reset': EmulatorReset,
  'emulator:start': EmulatorStart,
  'emulator:status': EmulatorStatus,
  'emulator:stop': EmulatorStop,
  login: Login,
  logout: Logout,
};

async function describeAll(): Promise<Record<string, Command.Class>> {
  const all: Record<string, Command.Class> = { ...HANDWRITTEN };
  for (const svc of await loadAllServices()) {
    for (const op of svc.operations()) all[oclifId(op.commandId)] = describedOperationCommand(op);
  }
  return all;
}

const onDemand = new Proxy(HANDWRITTEN, {
  get(target, id): Command.Class | undefined {
    if (typeof id !== 'string') return undefined;
    return target[id] ?? (id.includes(':') ? operationCommand(id) : undefined);
  },
});

export const COMMANDS: Record<string, Command.Class> = process.env.CDPCTL_DESCRIBE_COMMANDS ? await describeAll() : onDemand;
