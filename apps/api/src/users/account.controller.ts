import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClientIp, CurrentUser } from '../auth/decorators/current-principal.decorator';
import { UserRoute } from '../auth/decorators/route-access.decorator';
import type { UserPrincipal } from '../auth/principal';
import { AuthService } from '../auth/auth.service';
import { AccountResponse } from './dto/account.response';
import { ChangePasswordDto } from './dto/password.dto';
import { PasswordsService } from './passwords.service';

@Controller('api/me')
@ApiTags('auth')
export class AccountController {
  constructor(
    private readonly auth: AuthService,
    private readonly passwords: PasswordsService,
  ) {}

  @Get()
  @UserRoute()
  @ApiOperation({
    operationId: 'getMe',
    summary:
      'The signed-in person and the organisations they are a member of, with their role in each',
  })
  @ApiOkResponse({ type: AccountResponse })
  me(@CurrentUser() user: UserPrincipal): Promise<AccountResponse> {
    return this.auth.account(user.userId);
  }

  @Post('password')
  @HttpCode(204)
  @UserRoute()
  @ApiOperation({
    operationId: 'changePassword',
    summary:
      'Change your password (the current one is required); your other sign-in sessions end, this one stays',
  })
  @ApiNoContentResponse({ description: 'Changed.' })
  async changePassword(
    @CurrentUser() user: UserPrincipal,
    @Body() body: ChangePasswordDto,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    await this.passwords.change(user, body.currentPassword, body.newPassword, ip);
  }
}
