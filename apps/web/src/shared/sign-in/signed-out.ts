import { isApiError } from '@interlock/api-client';

/** A signed-in read's answer, or `null` when nobody is signed in (the API answered 401). */
export async function nullWhenSignedOut<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}
