import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ClientIp, CurrentUser } from '../auth/decorators/current-principal.decorator';
import { refuseUnderSso } from '../auth/sso-session.util';
import { UserRoute } from '../auth/decorators/route-access.decorator';
import type { UserPrincipal } from '../auth/principal';
import {
  RecoveryCodesResponse,
  TwoFactorConfirmDto,
  TwoFactorDisableDto,
  TwoFactorPasswordDto,
  TwoFactorSetupResponse,
  TwoFactorStatusResponse,
} from './dto/two-factor.dto';
import { TwoFactorService } from './two-factor.service';
import { NoContent } from '../openapi/no-content.decorator';
import { Operation } from '../openapi/operation.decorator';

/** Settings → Security's two-factor sign-in (SPEC §8f). */
@Controller('api/me/two-factor')
@ApiTags('auth')
export class TwoFactorController {
  constructor(private readonly twoFactor: TwoFactorService) {}

  @Get()
  @UserRoute()
  @Operation({
    operationId: 'getMyTwoFactor',
    summary:
      'Whether two-factor sign-in is on for you, since when, and how many recovery codes are left',
    ok: TwoFactorStatusResponse,
  })
  status(@CurrentUser() user: UserPrincipal): Promise<TwoFactorStatusResponse> {
    return this.twoFactor.status(user.userId);
  }

  @Post('setup')
  @HttpCode(200)
  @UserRoute()
  @Operation({
    operationId: 'startTwoFactorSetup',
    summary:
      'Start setting up two-factor sign-in (your password is required): a new authenticator key, shown once',
    description:
      'Nothing changes at sign-in until confirmTwoFactorSetup takes a code made with this key. Starting again replaces a key not yet confirmed.',
    ok: TwoFactorSetupResponse,
  })
  startSetup(
    @CurrentUser() user: UserPrincipal,
    @Body() body: TwoFactorPasswordDto,
    @ClientIp() ip: string | null,
  ): Promise<TwoFactorSetupResponse> {
    refuseUnderSso(user, 'twoFactor');
    return this.twoFactor.startSetup(user, body.password, ip);
  }

  @Post('confirm')
  @HttpCode(200)
  @UserRoute()
  @Operation({
    operationId: 'confirmTwoFactorSetup',
    summary:
      'Turn two-factor sign-in on with a code from your authenticator app; answers your recovery codes, shown once',
    ok: RecoveryCodesResponse,
  })
  confirmSetup(
    @CurrentUser() user: UserPrincipal,
    @Body() body: TwoFactorConfirmDto,
    @ClientIp() ip: string | null,
  ): Promise<RecoveryCodesResponse> {
    refuseUnderSso(user, 'twoFactor');
    return this.twoFactor.confirmSetup(user, body.code, ip);
  }

  @Post('disable')
  @UserRoute()
  @Operation({
    operationId: 'disableTwoFactor',
    summary:
      'Turn two-factor sign-in off (your password and a code from your app, or a recovery code, are required)',
  })
  @NoContent('Off: sign-in asks for the password alone.')
  async disable(
    @CurrentUser() user: UserPrincipal,
    @Body() body: TwoFactorDisableDto,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    refuseUnderSso(user, 'twoFactor');
    await this.twoFactor.disable(user, body.password, body.code, ip);
  }

  @Post('recovery-codes')
  @HttpCode(200)
  @UserRoute()
  @Operation({
    operationId: 'regenerateRecoveryCodes',
    summary:
      'New recovery codes (your password is required), shown once; the earlier ones stop working',
    ok: RecoveryCodesResponse,
  })
  regenerate(
    @CurrentUser() user: UserPrincipal,
    @Body() body: TwoFactorPasswordDto,
    @ClientIp() ip: string | null,
  ): Promise<RecoveryCodesResponse> {
    refuseUnderSso(user, 'twoFactor');
    return this.twoFactor.regenerateRecoveryCodes(user, body.password, ip);
  }
}
