import { Body } from '../http/validated-params';
import { CurrentUser, UserCaller } from '../auth/decorators/current-principal.decorator';
import type { UserCall } from '../auth/caller';
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
import { ApiController, Operation } from '../openapi/operation.decorator';

/** Settings → Security's two-factor sign-in (SPEC §8f). */
@ApiController('api/me/two-factor', 'auth')
@UserRoute()
export class TwoFactorController {
  constructor(private readonly twoFactor: TwoFactorService) {}

  @Operation.Get('/', 'getMyTwoFactor', {
    summary:
      'Whether two-factor sign-in is on for you, since when, and how many recovery codes are left',
    ok: TwoFactorStatusResponse,
  })
  status(@CurrentUser() user: UserPrincipal) {
    return this.twoFactor.status(user.userId);
  }

  @Operation.Post('setup', 'startTwoFactorSetup', {
    summary:
      'Start setting up two-factor sign-in (your password is required): a new authenticator key, shown once',
    description:
      'Nothing changes at sign-in until confirmTwoFactorSetup takes a code made with this key. Starting again replaces a key not yet confirmed.',
    ok: TwoFactorSetupResponse,
  })
  startSetup(@UserCaller() caller: UserCall, @Body() body: TwoFactorPasswordDto) {
    refuseUnderSso(caller.user, 'twoFactor');
    return this.twoFactor.startSetup(caller, body.password);
  }

  @Operation.Post('confirm', 'confirmTwoFactorSetup', {
    summary:
      'Turn two-factor sign-in on with a code from your authenticator app; answers your recovery codes, shown once',
    ok: RecoveryCodesResponse,
  })
  confirmSetup(@UserCaller() caller: UserCall, @Body() body: TwoFactorConfirmDto) {
    refuseUnderSso(caller.user, 'twoFactor');
    return this.twoFactor.confirmSetup(caller, body.code);
  }

  @Operation.Post('disable', 'disableTwoFactor', {
    summary:
      'Turn two-factor sign-in off (your password and a code from your app, or a recovery code, are required)',
    noContent: 'Off: sign-in asks for the password alone.',
  })
  async disable(@UserCaller() caller: UserCall, @Body() body: TwoFactorDisableDto) {
    refuseUnderSso(caller.user, 'twoFactor');
    await this.twoFactor.disable(caller, body.password, body.code);
  }

  @Operation.Post('recovery-codes', 'regenerateRecoveryCodes', {
    summary:
      'New recovery codes (your password is required), shown once; the earlier ones stop working',
    ok: RecoveryCodesResponse,
  })
  regenerate(@UserCaller() caller: UserCall, @Body() body: TwoFactorPasswordDto) {
    refuseUnderSso(caller.user, 'twoFactor');
    return this.twoFactor.regenerateRecoveryCodes(caller, body.password);
  }
}
