/**
 * What the parts of the Data Engineering service share: the states a
 * service is usable in, its versions, who is calling, and log lines read off
 * a record's first action.
 */
import type { resources } from '../../../model/services/de/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { notFound } from '../../errors.js';
import { crnId } from '../../ids.js';
import { compareVersions } from '../../shared/runtimes.js';
import { iso } from '../../values.js';

export type R = keyof typeof resources.resources;
export type Rec = Readonly<EngineRecord>;

/** States a service takes work in: up, or up after a failed upgrade (which leaves it running its old version). */
export const USABLE = ['ClusterCreationCompleted', 'ClusterUpgradeFailed'];

/** Data Engineering versions: a new service gets the newest, or the one before with deployPreviousVersion. */
export const LATEST_VERSION = '1.25.0';
export const PREVIOUS_VERSION = '1.24.1';

/** `a` is an older version than `b`. */
export const older = (a: string, b: string): boolean => compareVersions(a, b) < 0;

/** Who is calling, with the names the account knows them by (`name`: its workload user name). */
export function callerOf(h: Hook<R>): { crn: string; id: string; name: string; email?: string } {
  const crn = h.ctx.caller.actorCrn;
  const who = h.world.identities.actor(crn);
  const id = crnId(crn);
  return { crn, id, name: who?.workloadUsername || id, email: who?.email || undefined };
}

/** The service a record of the service's resources belongs to (the record itself, or its parent). */
export function serviceOf(h: Hook<R>, rec: Rec): EngineRecord {
  const services = h.records('cluster');
  const svc = services.byId(rec.scope) ?? services.byId(rec.id);
  if (!svc) throw new Error(`de: no service for ${rec.id}`);
  return svc;
}

/** A service's virtual clusters but those deleted (kept as AppDeleted). */
export const liveVcs = (h: Hook<R>, svc: Rec): EngineRecord[] =>
  h
    .records('vc')
    .all(svc.id)
    .filter((vc) => !h.records('vc').isDeleted(vc));

/** The record a request names, unless its delete has ended (then NOT_FOUND, as the engine's verbs answer). */
export function located(h: Hook<R>, resource: R, req: Doc): EngineRecord {
  const rec = h.locate(resource, req);
  const all = h.records(resource);
  if (all.isDeleted(rec)) throw notFound(`${all.model.noun} ${nameOf(rec)} is deleted`);
  return rec;
}

/**
 * The log of a record's first action read off its timeline: one line when
 * it begins, one as it enters each of its states, and how it ended; only
 * those of times the clock has reached (`toItsEnd`: of times before the
 * action ended, once it has).
 */
export function firstActionLog(
  h: Hook<R>,
  resource: R,
  rec: Rec,
  words: (action: string) => { readonly begin: string; readonly success: string; readonly failure: string },
  toItsEnd = false,
): string[] {
  const first = rec.past?.[0];
  const action = first?.action ?? rec.activity.action;
  const lifecycle = h.records(resource).model.lifecycle;
  const spec = lifecycle?.[action] ?? lifecycle?.create;
  if (!spec) return [];
  const { begin, success, failure } = words(action);
  let at = first?.startedAt ?? rec.activity.tl.startedAt;
  const lines: Array<[number, string]> = [[at, `INFO ${begin}`]];
  for (const [state, minutes] of spec.phases) {
    lines.push([at, `INFO ${state}`]);
    at += minutes * 60_000;
  }
  const failed = first ? first.failed : h.records(resource).progress(rec).failed;
  lines.push([at, failed ? `ERROR ${failure}` : `INFO ${success}`]);
  const until = first && toItsEnd ? first.endedAt : h.ctx.clock.now();
  return lines.filter(([t]) => t <= until).map(([t, line]) => `${iso(t)} ${line}`);
}
