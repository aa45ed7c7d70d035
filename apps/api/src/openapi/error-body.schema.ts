import { ApiProperty } from '@nestjs/swagger';
import { ERROR_CODES } from '@interlock/domain';
import type { ErrorCode } from '@interlock/domain';

/** SPEC §4: the body of every error response. */
export class ErrorBody {
  @ApiProperty({ type: 'integer', example: 401 })
  statusCode!: number;

  @ApiProperty({ example: 'Unauthorized', description: "The status's reason phrase." })
  error!: string;

  @ApiProperty({
    enum: Object.keys(ERROR_CODES),
    enumName: 'ErrorCode',
    description: 'Stable: switch on this.',
  })
  code!: ErrorCode;

  @ApiProperty({
    example: 'Invalid API key.',
    description: 'Human-readable; the exact texts of SPEC §4.',
  })
  message!: string;

  @ApiProperty({
    example: '9f1c2b0e-0d3a-4c1e-9b7a-2f0e4d5c6b7a',
    description: 'Also sent as the x-request-id header.',
  })
  requestId!: string;
}
