import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** First middleware: settles the request id and echoes it on every response. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const offered = req.headers['x-request-id'];
  const id = typeof offered === 'string' && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
  (req as { id?: string }).id = id;
  res.setHeader('x-request-id', id);
  next();
}

/** The request id settled by `requestIdMiddleware`. */
export function requestIdOf(req: IncomingMessage): string {
  const id = (req as { id?: unknown }).id;
  return typeof id === 'string' ? id : String(id ?? '');
}
