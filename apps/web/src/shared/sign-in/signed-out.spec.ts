import { ApiError } from '@interlock/api-client';
import { nullWhenSignedOut } from './signed-out';

describe('nullWhenSignedOut', () => {
  it('gives the answer, or null when the API answers 401', async () => {
    expect(await nullWhenSignedOut(async () => ({ name: 'Ada' }))).toEqual({ name: 'Ada' });
    const signedOut = new ApiError(401, 'UNAUTHENTICATED', 'Sign in first.', 'r-1');
    expect(await nullWhenSignedOut(() => Promise.reject(signedOut))).toBeNull();
  });

  it('passes any other failure on', async () => {
    const refused = new ApiError(403, 'MISSING_PERMISSION', 'No.', 'r-2');
    await expect(nullWhenSignedOut(() => Promise.reject(refused))).rejects.toBe(refused);
    await expect(nullWhenSignedOut(() => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    );
  });
});
