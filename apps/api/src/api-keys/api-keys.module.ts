import { Module } from '@nestjs/common';
import { ApiKeyVerifier } from './api-key-verifier.service';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

@Module({
  controllers: [ApiKeysController],
  providers: [ApiKeyVerifier, ApiKeysService, ApiKeysRepository],
  exports: [ApiKeyVerifier],
})
export class ApiKeysModule {}
