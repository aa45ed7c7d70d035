import { ApiError } from './api-error';
import { call } from './call';

const response = (status: number, headers: Record<string, string> = {}) =>
  new Response(null, { status, statusText: status === 502 ? 'Bad Gateway' : '', headers });

describe('call', () => {
  it('returns the data of a 2xx answer', async () => {
    await expect(
      call(Promise.resolve({ data: { id: 'k1' }, response: response(200) })),
    ).resolves.toEqual({ id: 'k1' });
  });

  it("throws the API's exact message, code and request id", async () => {
    const body = {
      statusCode: 409,
      error: 'Conflict',
      code: 'CONFLICT',
      message: 'Action refund of this interrupt has already been decided.',
      requestId: 'r-1',
    };
    const error = await call(Promise.resolve({ error: body, response: response(409) })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 'CONFLICT',
      message: body.message,
      requestId: 'r-1',
    });
  });

  it('describes an answer that is not an API error body by its status', async () => {
    const error = await call(
      Promise.resolve({ error: '', response: response(502, { 'x-request-id': 'r-2' }) }),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 502,
      code: 'HTTP_ERROR',
      message: 'The service answered 502 Bad Gateway.',
      requestId: 'r-2',
    });
  });

  it('turns a failed fetch into a network error', async () => {
    const error = await call(Promise.reject(new TypeError('Failed to fetch'))).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });
});
