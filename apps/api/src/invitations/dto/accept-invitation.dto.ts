import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import { JoinInvitationDto } from './join-invitation.dto';
import { NewPasswordField } from '../../auth/dto/password-field.decorator';

/** Signing up from the invitation link: a name and password, and the email's proof if it came with it. */
export class AcceptInvitationDto extends JoinInvitationDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 100,
    example: 'Grace Hopper',
    description: "The new member's name.",
  })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @NewPasswordField()
  password!: string;
}
