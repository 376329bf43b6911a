/**
 * Where each operation answers: its own path, the API gateway's
 * `/api/v1/<service>/<operation>`, and an upload's paths; and what a path
 * that names no operation is told.
 */
import { suggest } from '../../core/validate.js';
import type { Operation, Service } from '../../model/index.js';
import { notFound, type ApiError } from '../errors.js';
import type { Paging } from '../engine/paging.js';
import { SeedError } from '../seed.js';
import type { Handler, OperationRef } from '../types.js';

export interface Route {
  readonly op: Operation;
  /** What handlers see of the operation (its paging). */
  readonly ref: OperationRef;
  readonly handler?: Handler;
  readonly upload: boolean;
  /** For a workload path: the workload name its Bearer tokens must carry (DF). */
  readonly workload?: string;
  /** Where the operation's file goes (a redirected upload, see EmulatedService): on its JSON route, the path; on that path, set. */
  readonly redirect?: string;
}

/** `/api/v1/<service>/<operation>`: where the control plane's gateway answers every operation (for most services, its own path). */
export const gatewayPath = (service: string, operation: string): string => `/api/v1/${service}/${operation}`;

export class Routes {
  private readonly byPath = new Map<string, Route>();
  /** By `<service> <operation>` (wire names), for seeds and in-process calls. */
  private readonly byName = new Map<string, Route>();

  /** Adds an operation's route at its path, the gateway's and, for a file, where the file goes. */
  add(route: Route): void {
    const { op } = route;
    this.byPath.set(op.path, route);
    // The API gateway's form of every path, which clients of the private cloud and the
    // Ansible collection post to: the same route, authentication and checks.
    this.byPath.set(gatewayPath(op.service.name, op.name), route);
    this.byName.set(`${op.service.name} ${op.name}`, route);
    if (op.cli.upload) this.byPath.set(op.cli.upload.path, { ...route, upload: true });
    if (route.redirect) this.byPath.set(route.redirect, { ...route, upload: true });
  }

  at(path: string): Route | undefined {
    return this.byPath.get(path);
  }

  named(service: string, operation: string): Route | undefined {
    return this.byName.get(`${service} ${operation}`);
  }

  /** The paged operations served with a handler. */
  paged(): Array<{ service: string; operation: string; paging: Paging }> {
    return [...this.byName.values()]
      .filter((r) => r.handler && r.ref.paging)
      .map((r) => ({ service: r.ref.service, operation: r.ref.name, paging: r.ref.paging as Paging }));
  }

  /**
   * The route of `<service> <operation>` for a seed or an in-process call:
   * wire names, a CLI topic, or a cdp-style kebab operation name; never an
   * operation that takes a file.
   */
  forCall(services: readonly Service[], service: string, operation: string): Route {
    const svc = services.find((s) => s.name === service || s.topic === service);
    if (!svc) {
      const names = services.map((s) => s.name);
      throw new SeedError(`unknown service "${service}"${suggest(service, names) ?? ''}; services: ${names.join(', ')}`);
    }
    const op = svc.findByName(operation);
    if (!op) throw new SeedError(`${svc.name} has no operation "${operation}"${suggest(operation, svc.operationNames()) ?? ''}`);
    const route = this.named(svc.name, op.name);
    if (!route) throw new SeedError(`${svc.name} ${op.name} is not served here`);
    if (op.cli.upload || route.redirect) throw new SeedError(`${svc.name} ${op.name} takes a file upload, which a seed cannot give`);
    return route;
  }

  /**
   * What a path that names no operation is told. Under the gateway
   * (`/api/v1/<service>/<operation>`) it says which part is unknown and what
   * it could have been, since a client's typo there (a service's endpoint
   * name for its wire name, an operation's case) is otherwise a bare 404.
   */
  unknown(pathname: string): ApiError {
    const shown = `no operation at ${pathname.slice(0, 200)}`;
    const gateway = /^\/api\/v1\/([^/]+)\/([^/]+)$/.exec(pathname);
    if (!gateway) return notFound(shown);
    const [, service = '', operation = ''] = gateway;
    const services = [...new Set([...this.byName.keys()].map((k) => k.split(' ')[0] ?? ''))].sort();
    const sameService = services.find((s) => s.toLowerCase() === service.toLowerCase());
    if (sameService === undefined)
      return notFound(`${shown}: there is no service ${service.slice(0, 60)}; the services are ${services.join(', ')}`);
    if (sameService !== service) return notFound(`${shown}: the service is ${sameService}, in that case`);
    const operations = [...this.byName.keys()].filter((k) => k.startsWith(`${service} `)).map((k) => k.slice(service.length + 1));
    const sameOperation = operations.find((o) => o.toLowerCase() === operation.toLowerCase());
    return notFound(
      sameOperation
        ? `${shown}: the operation is ${sameOperation}, in that case`
        : `${shown}: ${service} has no operation ${operation.slice(0, 100)}`,
    );
  }
}
