/**
 * Reading a request's body as the control plane does: bounded, with plain
 * listeners (the hot path), UTF-8 strictly, JSON no deeper than anything
 * after it can walk; and reading away what a refused request still sends.
 */
import type { IncomingMessage } from 'node:http';
import { deeperThan } from '../../core/validate.js';
import { ApiError, invalid } from '../errors.js';
import type { Doc } from '../types.js';

/** A JSON request nested deeper than this is refused before anything walks it (validation refuses past 32 levels anyway). */
const MAX_REQUEST_DEPTH = 64;

/** The most of a refused request's body read and dropped before the connection is cut: a client that writes first gets its answer. */
export const DRAIN_LIMIT = 64 * 1024 * 1024;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A JSON body as the control plane takes it: UTF-8 (invalid bytes are refused, never replaced), then JSON. */
export function parseJson(body: Buffer): unknown {
  if (body.length === 0) return {};
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw invalid('the request body is not valid UTF-8');
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw invalid('the request body is not valid JSON');
  }
  // Validation, the audit trail's copy and the store all walk a document recursively: a deep one is refused here, as a 400.
  if (deeperThan(v, MAX_REQUEST_DEPTH)) throw invalid(`the request body is nested more than ${MAX_REQUEST_DEPTH} levels deep`);
  return v;
}

/** An admin request's JSON object body. */
export function jsonObject(body: Buffer): Doc {
  let v: unknown;
  try {
    v = JSON.parse(body.toString('utf8') || '{}');
  } catch {
    throw invalid('the request body is not valid JSON');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid('the request body must be a JSON object');
  return v as Doc;
}

/** The path of a request target; plain paths skip URL parsing (the hot path), others are normalised by URL. */
export function pathOf(target: string): string {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  return /^\/[A-Za-z0-9_/-]*$/.test(path) && !path.includes('//') ? path : new URL(target, 'http://localhost').pathname;
}

/** Reads and drops the rest of a request body, up to `limit` bytes; resolves whether it all arrived. */
export function drain(req: IncomingMessage, limit: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    let size = 0;
    const finish = (whole: boolean): void => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('close', onClose);
      req.removeListener('error', onError);
      resolve(whole);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish(false);
    };
    const onEnd = (): void => finish(true);
    const onClose = (): void => finish(req.complete);
    const onError = (): void => finish(false);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', onError);
    req.resume();
  });
}

/** Reads the whole body with plain listeners (an async iterator costs several times more per request). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(new ApiError(413, 'PAYLOAD_TOO_LARGE', `the request body is over ${limit} bytes`));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err?: Error): void => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      req.removeListener('close', onClose);
      if (err) reject(err);
      else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        done(new ApiError(413, 'PAYLOAD_TOO_LARGE', `the request body is over ${limit} bytes`));
      } else chunks.push(chunk);
    };
    const onEnd = (): void => done();
    const onError = (err: Error): void => done(err);
    const onClose = (): void => done(new Error('the connection closed before the request body was complete'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
