/** Identifiers and CRNs as the control plane writes them. */
import { randomUUID } from 'node:crypto';

export const uuid = (): string => randomUUID();

/** `crn:<partition>:<service>:<region>:<account>:<type>:<id>` */
export function crn(service: string, region: string, account: string, type: string, id: string, partition = 'cdp'): string {
  return `crn:${partition}:${service}:${region}:${account}:${type}:${id}`;
}

/** The last segment of a CRN (its id); the text itself when it is not a CRN. */
export function crnId(value: string): string {
  return value.startsWith('crn:') ? (value.split(':').pop() ?? value) : value;
}

export const isCrn = (value: string): boolean => value.startsWith('crn:');
