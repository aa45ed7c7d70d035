import { IsString, Length, Matches } from 'class-validator';

export class RenameTeamDto {
  @IsString()
  @Length(1, 50)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;
}
