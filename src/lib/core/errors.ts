/**
 * The errors cdpctl reports: one class a kind under one base (so a library
 * user can `catch (e) { if (e instanceof ServiceError) ... }`), made by one
 * factory, and the one table that maps an error's kind to the process exit
 * code (DESIGN "Exit codes").
 */
export const ExitCode = {
  ok: 0,
  service: 1,
  usage: 2,
  auth: 3,
  network: 4,
  waitFailed: 5,
  waitTimeout: 6,
  /** The service answered 501: it does not implement the operation (the emulator's NOT_EMULATED). */
  notImplemented: 7,
  interrupted: 130,
} as const;

export type ErrorKind = keyof typeof ExitCode;

export interface CdpErrorInit {
  kind: ErrorKind;
  code: string;
  message: string;
  /** HTTP status of the service's answer. */
  status?: number;
  /** Wire service name (`iam`). */
  service?: string;
  /** Wire operation name (`getUser`). */
  operation?: string;
  /** The service's id for the request (x-cdp-request-id or x-altus-request-id), for support tickets. */
  requestId?: string;
  /** Extra lines shown under the message (hints, per-item failures). */
  details?: readonly string[];
  /** Text shown only with --debug, under the details (the response a --query failed on). */
  debugText?: string;
  cause?: unknown;
}

/** The `--output json` error object: what the text lines say, as fields. */
export interface ErrorJson {
  error: Omit<CdpErrorInit, 'kind' | 'cause' | 'debugText'> & { debug?: string };
}

/** Every error cdpctl raises: what failed (`code`, the API's where it answered), and where. Made by cdpError(). */
export class CdpError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly status?: number;
  readonly service?: string;
  readonly operation?: string;
  readonly requestId?: string;
  readonly details: readonly string[];
  readonly debugText?: string;

  protected constructor(init: CdpErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.kind = init.kind;
    this.code = init.code;
    this.status = init.status;
    this.service = init.service;
    this.operation = init.operation;
    this.requestId = init.requestId;
    this.details = init.details ?? [];
    this.debugText = init.debugText;
  }

  get exitCode(): number {
    return ExitCode[this.kind];
  }

  /**
   * The official CLI's account of a service error, for a second line:
   * `(Status Code: 404; Error Code: NOT_FOUND; Service: iam; Operation: getUser; Request ID: ...)`.
   */
  get context(): string | undefined {
    if (this.status === undefined) return undefined;
    const parts = [`Status Code: ${this.status}`, `Error Code: ${this.code}`];
    if (this.service) parts.push(`Service: ${this.service}`);
    if (this.operation) parts.push(`Operation: ${this.operation}`);
    parts.push(`Request ID: ${this.requestId ?? 'none'}`);
    return `(${parts.join('; ')})`;
  }

  toJSON(): ErrorJson {
    return {
      error: {
        code: this.code,
        message: this.message,
        status: this.status,
        service: this.service,
        operation: this.operation,
        requestId: this.requestId,
        ...(this.details.length > 0 ? { details: this.details } : {}),
      },
    };
  }
}

type KindInit = Omit<CdpErrorInit, 'kind'>;

/** The control plane answered with an error (exit 1): `code` is the API's (`NOT_FOUND`), with its HTTP `status` and `requestId`. */
export class ServiceError extends CdpError {
  constructor(init: KindInit) {
    super({ ...init, kind: 'service' });
  }
}

/** The input was refused before anything was sent: a missing or invalid field, an unknown profile (exit 2). */
export class UsageError extends CdpError {
  constructor(init: KindInit) {
    super({ ...init, kind: 'usage' });
  }
}

/** Credentials are missing or unusable, or the control plane refused them (401/403; exit 3). */
export class AuthError extends CdpError {
  constructor(init: KindInit) {
    super({ ...init, kind: 'auth' });
  }
}

/** The control plane could not be reached, or stopped answering, after every retry (exit 4). */
export class NetworkError extends CdpError {
  constructor(init: KindInit) {
    super({ ...init, kind: 'network' });
  }
}

/** Long-running work that was waited for ended in a failure state (exit 5). */
export class WaitFailedError extends CdpError {
  constructor(init: KindInit) {
    super({ ...init, kind: 'waitFailed' });
  }
}

/** A wait ran out of time; the work goes on (exit 6). */
export class WaitTimeoutError extends CdpError {
  constructor(init: KindInit) {
    super({ ...init, kind: 'waitTimeout' });
  }
}

/** The control plane does not implement the operation (501; the emulator's NOT_EMULATED; exit 7). */
export class NotImplementedError extends CdpError {
  constructor(init: KindInit) {
    super({ ...init, kind: 'notImplemented' });
  }
}

/** Stopped by the user (Ctrl-C) or an abort signal (exit 130). */
export class InterruptedError extends CdpError {
  constructor(init: KindInit) {
    super({ ...init, kind: 'interrupted' });
  }
}

/** Whoever read the output went away (EPIPE: `cdpctl ... | head`): the run ends quietly, not as a failure (exit 0). */
export class OutputClosedError extends CdpError {
  constructor(init: KindInit) {
    super({ ...init, kind: 'ok' });
  }
}

const CLASSES: { readonly [K in ErrorKind]: new (init: KindInit) => CdpError } = {
  ok: OutputClosedError,
  service: ServiceError,
  usage: UsageError,
  auth: AuthError,
  network: NetworkError,
  waitFailed: WaitFailedError,
  waitTimeout: WaitTimeoutError,
  notImplemented: NotImplementedError,
  interrupted: InterruptedError,
};

/** The error of a kind, as the class of that kind. */
export function cdpError(init: CdpErrorInit): CdpError {
  const { kind, ...rest } = init;
  return new CLASSES[kind](rest);
}

/** Input rejected before anything was sent (exit 2). */
export function usageError(message: string, details?: readonly string[]): CdpError {
  return new UsageError({ code: 'INVALID_INPUT', message, details });
}

/** Credentials missing or unusable (exit 3). */
export function authError(code: string, message: string, details?: readonly string[]): CdpError {
  return new AuthError({ code, message, details });
}

/** Maps an HTTP error answer from the service to a CdpError. */
export function serviceError(init: {
  status: number;
  code: string;
  message: string;
  service: string;
  operation: string;
  requestId?: string;
}): CdpError {
  const kind: ErrorKind = init.status === 401 || init.status === 403 ? 'auth' : init.status === 501 ? 'notImplemented' : 'service';
  return cdpError({ kind, ...init });
}

/** Why a file could not be read, in words (`no such file`), from a node error. */
export function fileProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'it is a directory, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    default:
      return code ?? (err instanceof Error ? err.message : String(err));
  }
}
