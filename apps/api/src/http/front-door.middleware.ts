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
  /** Hands the request to its route (`RouteDispatcher`), or to the router. */
  route: (req: Request, res: Response, next: NextFunction) => void;
}

/**
 * Everything that happens to a request before routing, in order, as one Express middleware:
 * request id and state → the log line → 405 → the dashboard (pages and files, never `/api`,
 * `/docs` or `/health`) → the JSON body → the route, found in a tree (`RouteDispatcher`). One
 * router layer instead of five, and no walk through the routes: Express tests its layers one by
 * one for every request, so each costs every request a match (issue 14).
 */
export function frontDoorMiddleware(steps: FrontDoorSteps): RequestHandler {
  const { log, methodGate, dashboard, jsonBody, route } = steps;
  return (req: Request, res: Response, next: NextFunction) => {
    const state = assignRequestId(req, res);
    log(req, res, state);
    if (methodGate(req, res)) return;
    // Inline arrows: the bundle names a function held in a variable (esbuild's keepNames, which
    // tsup's decorator support turns on) with a defineProperty on every request.
    if (isServicePath(req.path)) return jsonBody(req, res, state, () => route(req, res, next));
    dashboard(req, res, () => jsonBody(req, res, state, () => route(req, res, next)));
  };
}
