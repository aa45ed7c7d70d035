import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import { PublicRoute } from '../auth/decorators/route-access.decorator';

export const OPENAPI_DOCUMENT = Symbol('OPENAPI_DOCUMENT');

/** What builds the document (once, at its first request: app.factory.ts). */
export interface OpenApiDocumentHolder {
  build?: () => OpenAPIObject;
}

/** Serves the contract the SDKs are generated from (the same document as contract/openapi.json). */
@Controller('api')
@ApiExcludeController()
export class OpenApiController {
  constructor(@Inject(OPENAPI_DOCUMENT) private readonly document: OpenApiDocumentHolder) {}

  @Get('openapi.json')
  @PublicRoute()
  openapi(): OpenAPIObject | Record<string, never> {
    return this.document.build?.() ?? {};
  }
}
