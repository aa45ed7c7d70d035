/**
 * Sign up (SPEC §8b): a new user and a new organisation with them as its Owner. The input of
 * `AuthService.signUp`, built by the REST controller from its validated body. Plain values.
 */
export interface SignUpCommand {
  email: string;
  password: string;
  name: string;
  organisationName: string;
  ip: string | null;
}
