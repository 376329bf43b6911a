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
  interrupted: 130,
} as const;

export type ErrorKind = keyof typeof ExitCode;

export interface CdpErrorInit {
  kind: ErrorKind;
  code: string;
  message: string;
  status?: number;
  operation?: string;
  /** Extra lines shown under the message (hints, per-item failures). */
  details?: readonly string[];
  cause?: unknown;
}

export class CdpError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly status?: number;
  readonly operation?: string;
  readonly details: readonly string[];

  constructor(init: CdpErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'CdpError';
    this.kind = init.kind;
    this.code = init.code;
    this.status = init.status;
    this.operation = init.operation;
    this.details = init.details ?? [];
  }

  get exitCode(): number {
    return ExitCode[this.kind];
  }

  toJSON(): { error: { code: string; message: string; status?: number; operation?: string } } {
    return { error: { code: this.code, message: this.message, status: this.status, operation: this.operation } };
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
export function serviceError(status: number, code: string, message: string, operation: string): CdpError {
  const kind: ErrorKind = status === 401 || status === 403 ? 'auth' : 'service';
  return new CdpError({ kind, code, message, status, operation });
}
