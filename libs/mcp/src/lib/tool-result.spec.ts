import { APIConnectionError, APIError } from '@interlock/sdk';
import { InterlockBackendError } from './backend';
import { toBackendError } from './sdk-backend';
import { failure } from './tool-result';

const texts = (result: ReturnType<typeof failure>) =>
  result.content.map((c) => (c.type === 'text' ? c.text : ''));

describe('failure', () => {
  it("puts the API's text first, exactly, then what to do with the code and status", () => {
    const result = failure(
      new InterlockBackendError('Invalid API key.', {
        status: 401,
        code: 'INVALID_API_KEY',
        requestId: 'r1',
      }),
    );
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toBe('Invalid API key.');
    expect(texts(result)[1]).toMatch(
      /create a new key.*\(INVALID_API_KEY, HTTP 401, request r1\)$/,
    );
  });

  it('names the interrupt already opened when a later read failed', () => {
    const result = failure(
      new InterlockBackendError('Invalid API key.', { status: 401, code: 'INVALID_API_KEY' }),
      { interruptId: 'abc' },
    );
    expect(texts(result)[1]).toContain('interruptId "abc"');
  });

  it('keeps the 402 allowance text as the API wrote it', () => {
    const text =
      'This organisation has used its included messages for the month (1000 on the Free plan).';
    const result = failure(
      toBackendError(
        APIError.generate(
          402,
          { statusCode: 402, code: 'MESSAGES_ALLOWANCE_EXHAUSTED', message: text, requestId: 'r' },
          new Headers(),
        ),
        'http://x',
      ),
    );
    expect(texts(result)[0]).toBe(text);
    expect(texts(result)[1]).toContain('Do not retry');
  });

  it('says where it could not connect, and hides the detail of unexpected errors', () => {
    expect(
      texts(failure(toBackendError(new APIConnectionError(), 'http://localhost:3000')))[0],
    ).toBe('Could not reach Interlock at http://localhost:3000.');
    expect(texts(failure(new Error('SELECT secret FROM …')))).toEqual([
      'Internal error in the Interlock MCP server.',
    ]);
  });
});
