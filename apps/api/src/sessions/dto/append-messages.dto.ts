import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsByteLength,
  IsIn,
  IsObject,
  IsString,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { MESSAGE_ROLES } from '../session-message.entity';
import type { MessageRole } from '../session-message.entity';

/** SPEC §5: content is a string of at most 32 kB (UTF-8 bytes). */
export const MAX_CONTENT_BYTES = 32 * 1024;
/** SPEC §5: 1–100 messages per call. */
export const MAX_MESSAGES_PER_CALL = 100;

export class SessionMessageDto {
  @ApiProperty({ enum: MESSAGE_ROLES, enumName: 'SessionMessageRole' })
  @IsIn(MESSAGE_ROLES)
  role!: MessageRole;

  @ApiProperty({ description: 'At most 32 kB (32768 bytes of UTF-8).' })
  @IsString()
  @IsByteLength(0, MAX_CONTENT_BYTES, {
    message: `content must be at most 32 kB (${MAX_CONTENT_BYTES} bytes of UTF-8)`,
  })
  // Postgres text cannot hold U+0000 (tool output sometimes carries it): refuse it by name.
  @ValidateBy({
    name: 'noNulCharacter',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || !value.includes('\u0000'),
      defaultMessage: () => 'content must not contain the NUL character (U+0000)',
    },
  })
  content!: string;
}

export class AppendMessagesDto {
  @ApiProperty({ type: [SessionMessageDto], minItems: 1, maxItems: MAX_MESSAGES_PER_CALL })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_MESSAGES_PER_CALL)
  // ValidateNested alone lets an array through as an element: each must be an object.
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SessionMessageDto)
  messages!: SessionMessageDto[];
}
