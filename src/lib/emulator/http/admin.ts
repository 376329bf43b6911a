/**
 * The emulator's own API under `/_emulator/`: health for anyone on loopback
 * (with a proof of identity when asked, identity.ts), and, for a caller with
 * the admin token from the pid file, deliveries, faults, the clock, the
 * profile and the whole state.
 */
import type { IncomingMessage } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { READ_LIMITS } from '../../core/bounded-read.js';
import { CdpError } from '../../core/errors.js';
import type { ClockState } from '../clock.js';
import { ApiError, invalid, notFound } from '../errors.js';
import { CHALLENGE_HEADER } from '../identity.js';
import { parseStateFile, type StateFile } from '../state.js';
import type { Doc } from '../types.js';
import { jsonObject, readBody } from './body.js';
import type { Delivery, FaultSettings } from './faults.js';

/** What the admin API reads and drives of the emulator. */
export interface AdminHost {
  readonly adminToken: string;
  readonly account: string;
  readonly faultSettings: FaultSettings;
  setFaults(f: FaultSettings): void;
  /** The health answer, with a proof of identity for a challenge. */
  health(challenge: string | undefined): Doc;
  deliveries(): Delivery[];
  clockView(): Doc;
  driveClock(change: { pause?: boolean; resume?: boolean; advanceMs?: number }): ClockState;
  exportState(): StateFile;
  importState(file: StateFile): Promise<void>;
  /** Points the instance's profile at it again; undefined when it writes none. */
  readonly repairProfile?: () => Promise<unknown>;
}

/** The answer to an admin request (always 200; a refusal is thrown as an ApiError). */
export async function adminAnswer(host: AdminHost, req: IncomingMessage, path: string): Promise<Doc> {
  if (path === '/_emulator/health' && req.method === 'GET') {
    const challenge = req.headers[CHALLENGE_HEADER];
    return host.health(typeof challenge === 'string' ? challenge : undefined);
  }
  const token = req.headers['x-emulator-admin'];
  const ok =
    typeof token === 'string' &&
    token.length === host.adminToken.length &&
    timingSafeEqual(Buffer.from(token), Buffer.from(host.adminToken));
  if (!ok) throw new ApiError(403, 'PERMISSION_DENIED', 'admin requests need the token from the pid file');
  switch (`${req.method ?? ''} ${path}`) {
    case 'GET /_emulator/deliveries':
      return { deliveries: host.deliveries() };
    case 'POST /_emulator/faults': {
      const body = jsonObject(await readBody(req, 4096)) as Partial<FaultSettings>;
      host.setFaults({ rate: Number(body.rate ?? 0), latencyMs: Number(body.latencyMs ?? 0), kinds: body.kinds ?? ['503', '429'] });
      return { faults: host.faultSettings };
    }
    case 'POST /_emulator/profile': {
      if (!host.repairProfile) throw notFound('this emulator writes no profile');
      return (await host.repairProfile()) as Doc;
    }
    case 'GET /_emulator/clock':
      return host.clockView();
    case 'POST /_emulator/clock': {
      const body = jsonObject(await readBody(req, 4096));
      const advance = body.advanceMs;
      if (advance !== undefined && typeof advance !== 'number') throw invalid('advanceMs must be a number of milliseconds');
      host.driveClock({ pause: body.pause === true, resume: body.resume === true, advanceMs: advance });
      return host.clockView();
    }
    case 'GET /_emulator/state':
      return host.exportState() as unknown as Doc;
    case 'POST /_emulator/state': {
      let file: StateFile;
      try {
        file = parseStateFile((await readBody(req, READ_LIMITS.state)).toString('utf8'), 'the state');
      } catch (err) {
        if (err instanceof ApiError) throw err;
        throw invalid((err as Error).message);
      }
      try {
        await host.importState(file);
      } catch (err) {
        // The data directory refused a file (a link planted among its uploads): nothing was imported, and the answer says why.
        if (err instanceof CdpError && err.kind === 'usage') throw invalid(err.message);
        throw err;
      }
      return { imported: file.documents.length, accountId: host.account, clock: host.clockView() };
    }
    default:
      throw notFound(`no admin operation at ${path}`);
  }
}
