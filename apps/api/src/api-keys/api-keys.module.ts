import { Module } from '@nestjs/common';
import { ApiKeyVerifier } from './api-key-verifier.service';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';

@Module({
  controllers: [ApiKeysController],
  providers: [ApiKeyVerifier, ApiKeysService],
  exports: [ApiKeyVerifier],
})
export class ApiKeysModule {}
