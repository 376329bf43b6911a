/**
 * cdpctl as a library: `import { CdpClient } from 'cdpctl'`. The public
 * API of the package's main entry is exactly what this file exports (the
 * `exports` map of package.json lets nothing else be imported); it follows
 * semver from 0.2.0 on (CHANGELOG.md).
 */
export { CdpClient, type ClientOptions } from './client.js';
export type { PaginateOptions, WaitOptions, WaitResult } from './options.js';
export {
  AuthError,
  CdpError,
  InterruptedError,
  NetworkError,
  NotImplementedError,
  OutputClosedError,
  ServiceError,
  UsageError,
  WaitFailedError,
  WaitTimeoutError,
  type ErrorKind,
} from '../core/errors.js';
export * from './services.js';
