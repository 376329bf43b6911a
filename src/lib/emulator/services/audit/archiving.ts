/**
 * Archiving the audit trail, in the two ways the API has. Automated
 * archiving (`configureArchiving` with enabled): the service archives a
 * time range itself (`archiveAuditEvents`), one archive run per batch of
 * events, to the configured storage. Archiving by the caller (when
 * automated archiving is off): a task cuts a time range into batches
 * (`batchEventsForArchiving`); the caller lists each batch's events, writes
 * them wherever it archives, and marks the batch successful, after which
 * its events can no longer be listed from it. An event goes into one batch
 * only. Tasks and runs take emulated minutes (OPEN, CREATED) before they
 * end; a storage location starting with `fail-` fails every run to it.
 */
import { CREDENTIAL_KIND, environmentResources } from '../../environments.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { failsOnPurpose, progress, start, type Activity, type Lifecycle } from '../../lifecycle.js';
import type { Listing } from '../../paging.js';
import type { BackendContext, Doc } from '../../types.js';
import { iso } from '../../values.js';
import { EVENT_KIND, EventLog, type EventRecord } from './events.js';

const CONFIG_KIND = 'audit.config';
const TASK_KIND = 'audit.task';
const BATCH_KIND = 'audit.batch';
const RUN_KIND = 'audit.run';

/** Events per batch. */
export const BATCH_SIZE = 1000;

/** Tasks are open a minute, and a minute more per batch (taskMinutes); the runs of an archive task last as long. */
const TASK: Lifecycle = { run: { phases: [['OPEN', 1]], success: 'COMPLETED', failure: 'FAILED' } };
const RUN: Lifecycle = { archive: { phases: [['CREATED', 1]], success: 'SUCCEEDED', failure: 'FAILED' } };

export interface ArchivingConfig {
  storageLocation: string;
  credentialName: string;
  enabled: boolean;
  storageRegion?: string;
}

/** A task: batching events for the caller (`batch`), or archiving them (`archive`). */
interface TaskRecord {
  taskId: string;
  kind: 'batch' | 'archive';
  activity: Activity;
  eventCount: number;
  archiveIds: string[];
}

interface BatchRecord {
  archiveId: string;
  taskId: string;
  eventCount: number;
  /** Store positions of its first and last events. */
  first: number;
  last: number;
  /** When its task ends: from then on the batch exists for the caller. */
  readyAt: number;
  /** Archived by an archive run (automated archiving), not by the caller. */
  automated: boolean;
  markedAt?: number;
}

interface RunRecord {
  runId: string;
  archiveId: string;
  eventCount: number;
  storageLocation: string;
  activity: Activity;
}

export class Archiving {
  readonly events: EventLog;

  constructor(private readonly ctx: BackendContext) {
    this.events = new EventLog(ctx.store);
  }

  private get now(): number {
    return this.ctx.clock.now();
  }

  private get account(): string {
    return this.ctx.info.accountId;
  }

  // ---- configuration -------------------------------------------------------------

  config(): ArchivingConfig | undefined {
    return this.ctx.store.get<ArchivingConfig>(CONFIG_KIND, this.account);
  }

  private get automated(): boolean {
    return this.config()?.enabled === true;
  }

  /** Checks a configuration (the credential exists, the storage can be written); stores it unless only verifying. */
  configure(next: ArchivingConfig, verifyOnly: boolean): ArchivingConfig | undefined {
    if (next.storageLocation.trim() === '') throw invalid('storageLocation must name the storage, e.g. an S3 bucket');
    environmentResources(this.ctx);
    const store = this.ctx.store;
    const ref = next.credentialName;
    const credential = ref.startsWith('crn:') ? store.getByCrn(ref)?.kind === CREDENTIAL_KIND : store.getByName(CREDENTIAL_KIND, ref);
    if (!credential) {
      const names = store.list<{ credentialName: string }>(CREDENTIAL_KIND).map((c) => c.doc.credentialName);
      throw notFound(`credential ${ref.slice(0, 200)} not found; this account has ${names.join(', ') || 'none'}`);
    }
    if (verifyOnly) {
      if (failsOnPurpose(next.storageLocation, 'archive', RUN))
        throw failedPrecondition(
          `storage ${next.storageLocation} cannot be written with credential ${ref}: access denied (the location starts with "fail-")`,
        );
      return this.config();
    }
    store.put(CONFIG_KIND, this.account, next);
    return next;
  }

  // ---- tasks -----------------------------------------------------------------------

  /** Where the newest task of a kind is noted (one of a kind runs at a time: only the newest can be open). */
  private latestKey(kind: TaskRecord['kind']): string {
    return `audit.latestTask:${kind}:${this.account}`;
  }

  private latest(kind: TaskRecord['kind']): TaskRecord | undefined {
    const id = this.ctx.store.meta(this.latestKey(kind));
    return id === undefined ? undefined : this.ctx.store.get<TaskRecord>(TASK_KIND, id);
  }

  /** A task by id, or NOT_FOUND. */
  task(taskId: string): TaskRecord {
    const t = this.ctx.store.get<TaskRecord>(TASK_KIND, taskId);
    if (!t) throw notFound(`archiving task ${taskId.slice(0, 200)} not found`);
    return t;
  }

  /** The newest batching task, or NOT_FOUND. */
  latestBatching(): TaskRecord {
    const t = this.latest('batch');
    if (!t) throw notFound('no task has batched events for archiving yet; start one with: cdpctl audit archive-batches create');
    return t;
  }

  status(t: TaskRecord): string {
    return progress(t.activity, this.now).state;
  }

  /** One task of a kind at a time. */
  private refuseBusy(kind: TaskRecord['kind'], what: string): void {
    const open = this.latest(kind);
    if (open && !progress(open.activity, this.now).done)
      throw failedPrecondition(`${what} task ${open.taskId} is still in progress; wait for it to end (its status is OPEN)`);
  }

  private newTask(kind: TaskRecord['kind'], batches: BatchRecord[], fail: boolean): TaskRecord {
    const activity = start(TASK, 'run', this.now, { minutes: taskMinutes(batches), fail });
    const t: TaskRecord = {
      taskId: `${kind === 'archive' ? 'archive' : 'batch'}-${uuid()}`,
      kind,
      activity,
      eventCount: batches.reduce((n, b) => n + b.eventCount, 0),
      archiveIds: batches.map((b) => b.archiveId),
    };
    const readyAt = progress(activity, this.now).endsAt;
    for (const b of batches) {
      b.taskId = t.taskId;
      b.readyAt = readyAt;
      this.ctx.store.put(BATCH_KIND, b.archiveId, b);
    }
    this.ctx.store.put(TASK_KIND, t.taskId, t);
    this.ctx.store.setMeta(this.latestKey(kind), t.taskId);
    return t;
  }

  /** The events of [from, to) not in a batch yet, cut into batches; `mark` files each event under its batch. */
  private cut(from: number, to: number, automated: boolean, mark: boolean): BatchRecord[] {
    const batches: BatchRecord[] = [];
    let current: BatchRecord | undefined;
    for (const row of this.events.each(from, to)) {
      if (row.doc.archiveId) continue;
      if (!current || current.eventCount === BATCH_SIZE) {
        current = { archiveId: uuid(), taskId: '', eventCount: 0, first: row.seq, last: row.seq, readyAt: 0, automated };
        batches.push(current);
      }
      current.eventCount++;
      current.last = row.seq;
      if (mark) this.events.save(row.id, { ...row.doc, archiveId: current.archiveId });
    }
    return batches;
  }

  /** Archives [from, to) to the configured storage: a task, and an archive run per batch. */
  archive(from: number, to: number): { task: TaskRecord; batches: BatchRecord[] } {
    const config = this.config();
    if (!config) throw failedPrecondition('archiving is not configured; configure it with: cdpctl audit archiving configure');
    if (!config.enabled) throw failedPrecondition('archiving is disabled; enable it with: cdpctl audit archiving configure --enabled');
    this.refuseBusy('archive', 'an archive');
    const fail = failsOnPurpose(config.storageLocation, 'archive', RUN);
    // A run that fails archives nothing: its events stay unarchived for the next run.
    const batches = this.cut(from, to, true, !fail);
    const task = this.newTask('archive', batches, fail);
    const subject = { subject: config.storageLocation, subjectNoun: 'storage location' };
    for (const b of batches) {
      const run: RunRecord = {
        runId: uuid(),
        archiveId: b.archiveId,
        eventCount: b.eventCount,
        storageLocation: config.storageLocation,
        activity: start(RUN, 'archive', this.now, { minutes: taskMinutes(batches), fail, ...subject }),
      };
      this.ctx.store.put(RUN_KIND, run.runId, run);
    }
    return { task, batches };
  }

  /** Cuts [from, to) into batches for the caller to archive (automated archiving off, one task at a time). */
  batchForArchiving(from: number, to: number): TaskRecord {
    this.refuseAutomated('batching events');
    this.refuseBusy('batch', 'a batching');
    return this.newTask('batch', this.cut(from, to, false, true), false);
  }

  /** Refuses what only the caller's archiving does while automated archiving is on. */
  refuseAutomated(what: string): void {
    if (this.automated)
      throw failedPrecondition(
        `${what} is disabled while automated archiving is configured; turn it off with: cdpctl audit archiving configure --no-enabled`,
      );
  }

  // ---- batches ---------------------------------------------------------------------

  batches(ids: readonly string[]): BatchRecord[] {
    return ids.map((id) => this.ctx.store.get<BatchRecord>(BATCH_KIND, id)).filter((b): b is BatchRecord => b !== undefined);
  }

  /** A batch of the caller's archiving that is ready, or the reason it cannot be used. */
  private outstanding(archiveId: string, what: string): BatchRecord {
    this.refuseAutomated(what);
    const b = this.ctx.store.get<BatchRecord>(BATCH_KIND, archiveId);
    if (!b || b.automated) throw notFound(`archive batch ${archiveId.slice(0, 200)} not found`);
    if (b.readyAt > this.now) throw failedPrecondition(`archive batch ${archiveId} is still being made by task ${b.taskId}`);
    return b;
  }

  /** The outstanding batches whose time is in [from, to), as a paged listing. */
  outstandingBatches(from: number, to: number): Listing<BatchRecord> {
    this.refuseAutomated('listing archive batches');
    const keep = (b: BatchRecord): boolean =>
      !b.automated && b.markedAt === undefined && b.readyAt <= this.now && b.readyAt >= from && b.readyAt < to;
    const store = this.ctx.store;
    return {
      read: (after, count) => {
        const out: Array<{ item: BatchRecord; position: number }> = [];
        for (let p = after; ;) {
          const rows = store.list<BatchRecord>(BATCH_KIND, p, 200);
          for (const row of rows) {
            if (keep(row.doc)) out.push({ item: row.doc, position: row.seq });
            if (out.length === count) return out;
          }
          const last = rows[rows.length - 1];
          if (rows.length < 200 || !last) return out;
          p = last.seq;
        }
      },
    };
  }

  /** The events of an outstanding batch, to write to the caller's archive. */
  eventsIn(archiveId: string): EventRecord[] {
    const b = this.outstanding(archiveId, 'listing the events of a batch');
    if (b.markedAt !== undefined)
      throw failedPrecondition(
        `archive batch ${archiveId} was marked as archived at ${iso(b.markedAt)}; its events can no longer be listed`,
      );
    const out: EventRecord[] = [];
    for (let p = b.first - 1; p < b.last;) {
      const rows = this.ctx.store.list<EventRecord>(EVENT_KIND, p, 500);
      for (const row of rows) if (row.seq <= b.last && row.doc.archiveId === archiveId) out.push(row.doc);
      const last = rows[rows.length - 1];
      if (rows.length < 500 || !last) break;
      p = last.seq;
    }
    return out;
  }

  /** Marks batches as archived by the caller, all or none; marking one again changes nothing. */
  markArchived(archiveIds: readonly string[]): number {
    if (archiveIds.length === 0) throw invalid('give the archiveIds of the batches to mark (see: cdpctl audit archive-batches list)');
    const batches = archiveIds.map((id) => this.outstanding(id, 'marking archive batches'));
    for (const b of batches) {
      if (b.markedAt !== undefined) continue;
      b.markedAt = this.now;
      this.ctx.store.put(BATCH_KIND, b.archiveId, b);
    }
    return this.now;
  }

  batchView(b: BatchRecord): Doc {
    return { accountId: this.account, eventCount: b.eventCount, archiveId: b.archiveId, archiveTimestamp: b.markedAt ?? b.readyAt };
  }

  // ---- runs ------------------------------------------------------------------------

  /** The newest runs first. */
  recentRuns(limit: number): Doc[] {
    const runs = this.ctx.store.list<RunRecord>(RUN_KIND).map((r) => r.doc);
    return runs
      .reverse()
      .slice(0, limit)
      .map((r) => this.runView(r));
  }

  private runView(r: RunRecord): Doc {
    const p = progress(r.activity, this.now);
    return {
      accountId: this.account,
      runId: r.runId,
      archiveId: r.archiveId,
      status: p.state,
      summary: p.failed
        ? `archiving ${r.eventCount} events to ${r.storageLocation} failed`
        : p.done
          ? `archived ${r.eventCount} events to ${r.storageLocation}`
          : `archiving ${r.eventCount} events to ${r.storageLocation}`,
      ...(p.failed && r.activity.reason ? { details: r.activity.reason } : {}),
      creationTimestamp: iso(r.activity.tl.startedAt),
      ...(p.succeeded ? { archiveTimestamp: iso(p.endsAt) } : {}),
    };
  }
}

const taskMinutes = (batches: readonly BatchRecord[]): number => 1 + batches.length;
