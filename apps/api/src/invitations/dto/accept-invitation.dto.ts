import { IsString, Length, Matches } from 'class-validator';

export class AcceptInvitationDto {
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @IsString()
  @Length(8, 200)
  password!: string;
}
