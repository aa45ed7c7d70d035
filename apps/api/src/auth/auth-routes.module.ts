import { Module } from '@nestjs/common';
import { OrganisationModule } from '../organisation/organisation.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { WhoamiController } from './whoami.controller';

/** Sign-up, sign-in, sign-out, and a key's view of itself. */
@Module({
  imports: [OrganisationModule],
  controllers: [AuthController, WhoamiController],
  providers: [AuthService],
})
export class AuthRoutesModule {}
