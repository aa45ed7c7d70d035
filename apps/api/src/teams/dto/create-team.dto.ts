import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';

export class CreateTeamDto {
  @ApiProperty({ minLength: 1, maxLength: 50, example: 'Platform' })
  @IsString()
  @Length(1, 50)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;
}
