import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { INestApplication, Type } from '@nestjs/common';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { ROUTE_ACCESS, RouteAccess } from './decorators/route-access.decorator';

export interface DeclaredRoute {
  method: string;
  path: string;
  handler: string;
  access: RouteAccess | undefined;
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
  const modules = app.get(ModulesContainer);
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
        access: reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [handler, controller]),
      });
    }
  }
  return routes.sort((a, b) => (a.path === b.path ? a.method.localeCompare(b.method) : a.path.localeCompare(b.path)));
}
