import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isServicePath } from './dashboard.middleware';
import type { RequestState } from './request-state';
import { assignRequestId } from './request-id.middleware';

export interface FrontDoorSteps {
  /** Starts the request's log line (`httpLogger`). */
  log: (req: Request, res: Response, state: RequestState) => void;
  /** Answers 405 for a method the path does not serve (`methodNotAllowedGate`); true when it answered. */
  methodGate: (req: Request, res: Response) => boolean;
  /** The dashboard (`dashboardMiddleware`), for paths the service does not answer itself. */
  dashboard: (req: Request, res: Response, next: () => void) => void;
  /** Reads a JSON body (`jsonBodyStep`). */
  jsonBody: (req: Request, res: Response, state: RequestState, next: NextFunction) => void;
}

/**
 * Everything that happens to a request on Express before Express routes it, in order, as one
 * middleware: request id and state → the log line → 405 → the dashboard (pages and files,
 * never `/api`, `/docs` or `/health`) → the JSON body → Express's router. (On Fastify the same
 * steps are `installFastifyFrontDoor`'s hook and content-type parsers.)
 */
export function frontDoorMiddleware(steps: FrontDoorSteps): RequestHandler {
  const { log, methodGate, dashboard, jsonBody } = steps;
  return (req: Request, res: Response, next: NextFunction) => {
    const state = assignRequestId(req, res);
    log(req, res, state);
    if (methodGate(req, res)) return;
    if (isServicePath(req.path)) return jsonBody(req, res, state, next);
    dashboard(req, res, () => jsonBody(req, res, state, next));
  };
}
