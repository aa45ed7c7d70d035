/** A member as listed: never their password hash. */
export interface MemberResponse {
  id: string;
  email: string;
  name: string;
  roleId: string;
  roleName: string;
  createdAt: string;
}
