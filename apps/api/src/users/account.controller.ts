import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth/decorators/current-principal.decorator';
import { UserRoute } from '../auth/decorators/route-access.decorator';
import type { UserPrincipal } from '../auth/principal';
import { AuthService } from '../auth/auth.service';
import { AccountResponse } from './dto/account.response';

@Controller('api/me')
@ApiTags('auth')
export class AccountController {
  constructor(private readonly auth: AuthService) {}

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
}
