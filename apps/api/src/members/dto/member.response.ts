import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

/** A member as listed: never their password hash. */
export class MemberResponse {
  @ApiUuid({
    description: "The member's id: their user id, the same in every organisation they belong to.",
  })
  id!: string;

  @ApiProperty({ format: 'email', maxLength: 254, example: 'grace@example.com' })
  email!: string;

  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Grace Hopper' })
  name!: string;

  @ApiUuid()
  roleId!: string;

  @ApiProperty({ example: 'Developer', description: "The name of the member's role." })
  roleName!: string;

  @ApiDateTime({
    description: 'When they joined the organisation (their current membership began).',
  })
  createdAt!: string;
}

export class MemberListResponse {
  @ApiProperty({ type: [MemberResponse] })
  members!: MemberResponse[];
}
