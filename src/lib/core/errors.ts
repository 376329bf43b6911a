/**
 * One error type for everything cdpctl reports, and the one table that maps
 * an error's kind to the process exit code (DESIGN "Exit codes").
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

export class CdpError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly status?: number;
  readonly service?: string;
  readonly operation?: string;
  readonly requestId?: string;
  readonly details: readonly string[];
  readonly debugText?: string;

  constructor(init: CdpErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'CdpError';
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

/** Input rejected before anything was sent (exit 2). */
export function usageError(message: string, details?: readonly string[]): CdpError {
  return new CdpError({ kind: 'usage', code: 'INVALID_INPUT', message, details });
}

/** Credentials missing or unusable (exit 3). */
export function authError(code: string, message: string, details?: readonly string[]): CdpError {
  return new CdpError({ kind: 'auth', code, message, details });
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
  return new CdpError({ kind, ...init });
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
