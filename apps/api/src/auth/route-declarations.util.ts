import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { INestApplication, Type } from '@nestjs/common';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { describePermission, ROUTE_ACCESS, RouteAccess } from './decorators/route-access.decorator';

export interface DeclaredRoute {
  method: string;
  path: string;
  handler: string;
  access: RouteAccess | undefined;
  /** The controller class and the handler's method name (for tests that read its metadata). */
  controller: Type;
  methodName: string;
}

function joinPath(...parts: (string | string[] | undefined)[]): string {
  const segments = parts
    .map((p) => (Array.isArray(p) ? p[0] : p) ?? '')
    .flatMap((p) => p.split('/'))
    .filter((s) => s !== '');
  return `/${segments.join('/')}`;
}

/** Every route the app serves, with what it declares it admits (for tests and the contract). */
export function declaredRoutes(app: INestApplication): DeclaredRoute[] {
  // The module container, not DiscoveryService: it works in preview mode too (the contract is
  // built without instantiating anything).
  return declaredRoutesIn(app.get(ModulesContainer));
}

/** The same, from the module container (for a provider, which has no app to ask). */
export function declaredRoutesIn(modules: ModulesContainer): DeclaredRoute[] {
  const scanner = new MetadataScanner();
  const reflector = new Reflector();
  const routes: DeclaredRoute[] = [];
  const wrappers = [...modules.values()].flatMap((module) => [...module.controllers.values()]);
  for (const wrapper of wrappers) {
    const controller = wrapper.metatype as Type | undefined;
    if (controller === undefined) continue;
    const base = Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined;
    for (const name of scanner.getAllMethodNames(controller.prototype)) {
      const handler = controller.prototype[name] as () => unknown;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (path === undefined) continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
      routes.push({
        method: RequestMethod[method],
        path: joinPath(base, path),
        handler: `${controller.name}.${name}`,
        controller,
        methodName: name,
        access: reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [
          handler,
          controller,
        ]),
      });
    }
  }
  return routes.sort((a, b) =>
    a.path === b.path ? a.method.localeCompare(b.method) : a.path.localeCompare(b.path),
  );
}

/** Whether a route is for people only (a key is refused with 403 HUMANS_ONLY). */
export function isHumanOnly(route: DeclaredRoute): boolean {
  const principal = route.access?.principal;
  return principal === 'member' || principal === 'user' || principal === 'human';
}

/** One line per route: method, path and what it admits; the reviewed snapshot's rows. */
export function routeDeclarationTable(routes: DeclaredRoute[]): string[] {
  return routes.map((r) => {
    const a = r.access;
    const detail =
      a === undefined
        ? 'UNDECLARED'
        : a.principal === 'api_key'
          ? `api_key${a.plan ? ` plan=${a.plan}` : ''}`
          : a.principal === 'member'
            ? `member${a.permission ? ` ${describePermission(a.permission)}` : ''}`
            : a.principal === 'api_key_or_member'
              ? `api_key${a.plan ? ` plan=${a.plan}` : ''} | member ${describePermission(a.permission)}`
              : a.principal;
    return `${r.method.padEnd(6)} ${r.path.padEnd(40)} ${detail}${isHumanOnly(r) ? ' humans-only' : ''}`;
  });
}
