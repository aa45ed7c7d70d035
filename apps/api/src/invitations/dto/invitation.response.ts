/** An invitation as listed: never its token. */
export interface InvitationResponse {
  id: string;
  email: string;
  roleId: string;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
}

/** The creation response: the only time the token is shown. */
export interface CreatedInvitationResponse extends Omit<InvitationResponse, 'acceptedAt'> {
  token: string;
}
