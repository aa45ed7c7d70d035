import { Module } from '@nestjs/common';
import { OPENAPI_DOCUMENT, OpenApiController } from './openapi.controller';

/** Holds what builds the document at its first request (see app.factory.ts). */
@Module({
  controllers: [OpenApiController],
  providers: [{ provide: OPENAPI_DOCUMENT, useValue: {} }],
  exports: [OPENAPI_DOCUMENT],
})
export class OpenApiModule {}
