/**
 * The datalake service's state and rules, without HTTP: one backend per
 * request, made of its resources' parts: lakes.ts (data lakes and their
 * lifecycle), backups.ts (backup and restore), diagnostics.ts (diagnostics
 * collections). The fixed world is in catalogue.ts, the stored records in
 * records.ts, the wire views in views.ts.
 */
import type { BackendContext, EmulatorInfo } from '../../types.js';
import { Backups } from './backups.js';
import { Diagnostics } from './diagnostics.js';
import { Lakes } from './lakes.js';

export class DatalakeBackend {
  readonly lakes: Lakes;
  readonly backups: Backups;
  readonly diagnostics: Diagnostics;

  constructor(private readonly ctx: BackendContext) {
    this.lakes = new Lakes(ctx);
    this.backups = new Backups(ctx, this.lakes);
    this.diagnostics = new Diagnostics(ctx);
  }

  get now(): number {
    return this.ctx.clock.now();
  }

  get info(): EmulatorInfo {
    return this.ctx.info;
  }
}
