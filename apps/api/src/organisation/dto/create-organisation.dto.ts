import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';

export class CreateOrganisationDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Acme staging' })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;
}
