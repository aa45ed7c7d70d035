import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

/** A key as listed (SPEC §6): never the key itself. */
export class ApiKeyResponse {
  @ApiUuid()
  id!: string;

  @ApiProperty({ minLength: 1, maxLength: 32, example: 'ci-runner' })
  name!: string;

  @ApiProperty({
    description: 'The prefix and the first 4 letters, e.g. ilk_AbCd.',
    example: 'ilk_AbCd',
  })
  start!: string;

  @ApiDateTime()
  createdAt!: string;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'null: never expires.',
  })
  expiresAt!: string | null;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'Kept to within a minute.',
  })
  lastUsedAt!: string | null;
}

/** The creation response: the only time the full key is shown. */
export class CreatedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({ description: 'The full key. Shown once; store it now.', example: 'ilk_AbCd…' })
  key!: string;
}

export class ApiKeyListResponse {
  @ApiProperty({ type: [ApiKeyResponse] })
  apiKeys!: ApiKeyResponse[];
}
