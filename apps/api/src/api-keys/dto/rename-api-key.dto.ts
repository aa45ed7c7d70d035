import { IsString, Length, Matches } from 'class-validator';

export class RenameApiKeyDto {
  @IsString()
  @Length(1, 32)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;
}
