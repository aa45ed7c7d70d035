import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';

export class RenameApiKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 32 })
  @IsString()
  @Length(1, 32)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;
}
