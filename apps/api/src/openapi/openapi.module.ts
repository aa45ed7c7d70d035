import { Module } from '@nestjs/common';
import { OPENAPI_DOCUMENT, OpenApiController } from './openapi.controller';

/** Holds the document built once at start (see app.factory.ts). */
@Module({
  controllers: [OpenApiController],
  providers: [{ provide: OPENAPI_DOCUMENT, useValue: {} }],
  exports: [OPENAPI_DOCUMENT],
})
export class OpenApiModule {}
