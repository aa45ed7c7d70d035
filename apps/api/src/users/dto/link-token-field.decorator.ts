import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

/** Longer than any token the service makes (32 random bytes, base64url); bounds what is read. */
const LINK_TOKEN_MAX_LENGTH = 200;

/**
 * The token of an account link emailed to a person (a reset, a verification, an email change or
 * its undo, SPEC §8f), as the dashboard's page sends it from the link's fragment. `link` names the
 * link in the contract's description: "The token from `link` (the part after the link's #)."
 */
export function LinkTokenField(link: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      maxLength: LINK_TOKEN_MAX_LENGTH,
      description: `The token from ${link} (the part after the link's #).`,
    }),
    // First to last, where stacked decorators apply bottom-up: the length before IsString keeps a
    // 400's messages in the order of the stacked `@IsString() @MaxLength(200)` it replaced.
    MaxLength(LINK_TOKEN_MAX_LENGTH),
    IsString(),
  );
}
