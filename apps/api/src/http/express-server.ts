import { IncomingMessage, ServerResponse, createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/** Whether `f` may be called on an object made elsewhere (`f.call(this, …)`): a function, not a class. */
function callable(f: unknown): boolean {
  return typeof f === 'function' && !/^class\b/.test(Function.prototype.toString.call(f));
}

/**
 * The HTTP server of an Express app, making each request and response with Express's own
 * prototypes (`app.request`, `app.response`) from the start.
 *
 * Express otherwise sets them on every request (`Object.setPrototypeOf(req, app.request)` and
 * the same for `res`, in `app.handle`), a known cost (expressjs/express#5998, nodejs/node#37457).
 * Here, under V8's `--trace-gc-nvp`, it showed as the requests and responses, and what they
 * reference, outliving the young generation: 15–30 % of new space surviving each scavenge and
 * nearly all of it promoted, even at one connection, then collected by full collections several
 * times a second (issue 14, BENCHMARKS.md). Made with the right prototype, Express's
 * `setPrototypeOf` finds it already set and changes nothing; the objects are the same
 * (`instanceof` IncomingMessage and ServerResponse, Express's methods). A sub-app mounted with
 * `app.use(path, otherApp)` would switch prototypes per request again on its routes; the service
 * mounts none.
 *
 * Node's own constructors are called on the new object (`IncomingMessage.call(this, socket)`),
 * as Node's HTTP classes are functions; `Reflect.construct` would do the same for classes, but a
 * bare Express app served this way took four times as long for the same requests. Should a Node
 * version make them classes, the server is Node's default one, as before.
 */
export function createExpressServer(app: Express): Server {
  if (!callable(IncomingMessage) || !callable(ServerResponse)) return createServer(app);
  const initRequest = IncomingMessage as unknown as (this: object, socket: Socket) => void;
  const initResponse = ServerResponse as unknown as (
    this: object,
    req: IncomingMessage,
    options?: object,
  ) => void;
  function ExpressRequest(this: object, socket: Socket): void {
    initRequest.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(this: object, req: IncomingMessage, options?: object): void {
    initResponse.call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  return createServer(
    {
      IncomingMessage: ExpressRequest as unknown as typeof IncomingMessage,
      ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
    },
    app,
  );
}
