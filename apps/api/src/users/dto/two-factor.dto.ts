import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { PasswordField } from '../../auth/dto/password-field.decorator';

export class TwoFactorPasswordDto {
  @PasswordField('Your current password.')
  password!: string;
}

export class TwoFactorConfirmDto {
  @ApiProperty({
    maxLength: 64,
    example: '123456',
    description: 'The 6-digit code your authenticator app shows for the new key.',
  })
  @IsString()
  @MaxLength(64)
  code!: string;
}

export class TwoFactorDisableDto extends TwoFactorPasswordDto {
  @ApiProperty({
    maxLength: 64,
    example: '123456',
    description: "Your authenticator app's 6-digit code, or an unused recovery code.",
  })
  @IsString()
  @MaxLength(64)
  code!: string;
}

/** Whether two-factor sign-in is on for the signed-in person (SPEC §8f). */
export class TwoFactorStatusResponse {
  @ApiProperty()
  enabled!: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  enabledAt!: string | null;

  @ApiProperty({ description: 'Unused recovery codes (0 while two-factor is off).' })
  recoveryCodesLeft!: number;
}

/** A new authenticator key, shown this once; it works only after a code confirms it. */
export class TwoFactorSetupResponse {
  @ApiProperty({
    description: 'The key in base32 (RFC 4648), for typing into an authenticator app.',
    example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  })
  secret!: string;

  @ApiProperty({
    description: 'The same key as an otpauth:// URI (TOTP, SHA-1, 6 digits, 30 s) for a QR code.',
  })
  otpauthUri!: string;
}

/** Single-use recovery codes, shown this once (the service keeps only their hashes). */
export class RecoveryCodesResponse {
  @ApiProperty({ type: [String], example: ['k7m2p-x9q4r'] })
  recoveryCodes!: string[];
}
