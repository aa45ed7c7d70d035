import { call, verifyEmail } from '@interlock/api-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { meKey } from '@/shared/sign-in/me.queries';

/** Uses a verification link's token; the signed-in person (if any) reads as verified afterwards. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => call(verifyEmail({ body: { token } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meKey }),
  });
}
