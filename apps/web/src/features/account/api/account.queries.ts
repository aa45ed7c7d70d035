import { call, changePassword, type ChangePasswordDto } from '@interlock/api-client';
import { useMutation } from '@tanstack/react-query';

/** Changes the signed-in person's password; their other sign-in sessions end, this one stays. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordDto) => call(changePassword({ body })),
  });
}
