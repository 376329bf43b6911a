/**
 * What the parts of the Data Engineering service share: the states a
 * service is usable in, its versions, who is calling, short ids, and log
 * lines read off an action's timeline.
 */
import { randomBytes } from 'node:crypto';
import type { EngineRecord, Hook } from '../../engine/index.js';
import { crnId } from '../../ids.js';
import type { ActionSpec } from '../../lifecycle.js';
import type { Doc, RequestContext } from '../../types.js';
import { iso, str } from '../../values.js';

/** A service that is up. */
export const READY = 'ClusterCreationCompleted';
/** States a service takes work in: up, or up after a failed upgrade (which leaves it running its old version). */
export const USABLE = [READY, 'ClusterUpgradeFailed'];

/** Data Engineering versions: a new service gets the newest, or the one before with deployPreviousVersion. */
export const LATEST_VERSION = '1.25.0';
export const PREVIOUS_VERSION = '1.24.1';

/** `a` is an older version than `b`. */
export const older = (a: string, b: string): boolean => a.localeCompare(b, undefined, { numeric: true }) < 0;

const ID_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** An id as the service writes them: `cluster-6gqzwzb4`, `dex-app-c8wxv76g`. */
export const shortId = (prefix: string): string => `${prefix}-${Array.from(randomBytes(8), (b) => ID_CHARS[b % ID_CHARS.length]).join('')}`;

export interface Caller {
  readonly crn: string;
  readonly id: string;
  /** Workload user name. */
  readonly name: string;
  readonly email?: string;
}

/** Who is calling, with the names its iam record has. */
export function callerOf(ctx: RequestContext): Caller {
  const crn = ctx.caller.actorCrn;
  const who = ctx.store.getByCrn<Doc>(crn)?.doc ?? {};
  const id = crnId(crn);
  const email = str(who.email);
  return { crn, id, name: str(who.workloadUsername) ?? str(who.machineUserName) ?? id, ...(email ? { email } : {}) };
}

/** The service a record of the service's resources belongs to (the record itself, or its parent). */
export function serviceOf(h: Hook, rec: EngineRecord): EngineRecord {
  const services = h.resources('cluster');
  const svc = services.byId(rec.scope) ?? services.byId(rec.id);
  if (!svc) throw new Error(`de: no service for ${rec.id}`);
  return svc;
}

/**
 * Log lines of an action read off its timeline: one when it begins, one as
 * it enters each of its states, and how it ended; only those of times the
 * clock has reached.
 */
export function timelineLog(
  spec: ActionSpec,
  startedAt: number,
  now: number,
  words: { readonly begin: string; readonly success: string; readonly failure?: string },
  failed: boolean,
): string[] {
  const lines: Array<[number, string]> = [[startedAt, `INFO ${words.begin}`]];
  let at = startedAt;
  for (const [state, minutes] of spec.phases) {
    lines.push([at, `INFO ${state}`]);
    at += minutes * 60_000;
  }
  lines.push([at, failed ? `ERROR ${words.failure ?? 'failed'}` : `INFO ${words.success}`]);
  return lines.filter(([t]) => t <= now).map(([t, line]) => `${iso(t)} ${line}`);
}
