/**
 * What the parts of the Data Engineering service share: the states a
 * service is usable in, its versions, who is calling, and log lines read off
 * an action's timeline.
 */
import type { resources } from '../../../model/services/de/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import type { ActionSpec } from '../../engine/timeline.js';
import { notFound } from '../../errors.js';
import { crnId } from '../../ids.js';
import { compareVersions } from '../../shared/runtimes.js';
import { iso } from '../../values.js';

export type R = keyof typeof resources.resources;
export type Rec = Readonly<EngineRecord>;

/** A service that is up. */
export const READY = 'ClusterCreationCompleted';
/** States a service takes work in: up, or up after a failed upgrade (which leaves it running its old version). */
export const USABLE = [READY, 'ClusterUpgradeFailed'];

/** Data Engineering versions: a new service gets the newest, or the one before with deployPreviousVersion. */
export const LATEST_VERSION = '1.25.0';
export const PREVIOUS_VERSION = '1.24.1';

/** `a` is an older version than `b`. */
export const older = (a: string, b: string): boolean => compareVersions(a, b) < 0;

export interface Caller {
  readonly crn: string;
  readonly id: string;
  /** Workload user name. */
  readonly name: string;
  readonly email?: string;
}

/** Who is calling, with the names the account knows them by. */
export function callerOf(h: Hook<R>): Caller {
  const crn = h.ctx.caller.actorCrn;
  const who = h.world.identities.actor(crn);
  const id = crnId(crn);
  return { crn, id, name: who?.workloadUsername || id, ...(who?.email ? { email: who.email } : {}) };
}

/** The service a record of the service's resources belongs to (the record itself, or its parent). */
export function serviceOf(h: Hook<R>, rec: Rec): EngineRecord {
  const services = h.records('cluster');
  const svc = services.byId(rec.scope) ?? services.byId(rec.id);
  if (!svc) throw new Error(`de: no service for ${rec.id}`);
  return svc;
}

/** The record a request names, unless its delete has ended (then NOT_FOUND, as the engine's verbs answer). */
export function located(h: Hook<R>, resource: R, req: Doc): EngineRecord {
  const rec = h.locate(resource, req);
  const all = h.records(resource);
  if (all.isDeleted(rec)) throw notFound(`${all.model.noun} ${rec.name ?? rec.id} is deleted`);
  return rec;
}

/** An action of a resource's lifecycle (the model's facts with the emulated minutes). */
export function actionOf(h: Hook<R>, resource: R, action: string): ActionSpec | undefined {
  return h.records(resource).model.lifecycle?.[action];
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
