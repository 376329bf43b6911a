/** Export and import on a stopped emulator: straight on its state database. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { StateError, checkStateFormat, exportState, importState, loadClock, type StateFile } from './state.js';
import { checkDataDir } from './data-dir.js';
import { Store } from './store.js';

/** The state of a stopped emulator (its clock as it was stored). */
export function exportStopped(dataDir: string): StateFile {
  const path = join(dataDir, 'state.db');
  if (!checkDataDir(dataDir, { create: false }) || !existsSync(path))
    throw new StateError(`there is no emulator state in ${dataDir} (start an emulator there first)`);
  const store = new Store(path);
  try {
    checkStateFormat(store, dataDir);
    const c = loadClock(store);
    return store.transaction(() => exportState(store, dataDir, { now: c.now ?? Date.now(), paused: c.paused ?? false }), {
      readOnly: true,
    });
  } finally {
    store.close();
  }
}

/** Replaces a stopped emulator's state (the data directory is made when missing). */
export function importStopped(dataDir: string, file: StateFile): void {
  checkDataDir(dataDir, { create: true });
  const store = new Store(join(dataDir, 'state.db'));
  try {
    importState(store, dataDir, file);
  } finally {
    store.close();
  }
}
