import { request as httpRequest } from 'node:http';

/** The raw response of one request: status line, headers in order (Date dropped), body bytes as hex. */
export function rawResponse(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { port, method, path, host: '127.0.0.1', headers: { connection: 'close', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const lines = res.rawHeaders.reduce<string[]>(
            (all, value, i, list) =>
              i % 2 === 0 && value.toLowerCase() !== 'date'
                ? [...all, `${value}: ${list[i + 1]}`]
                : all,
            [],
          );
          resolve(
            [`${res.statusCode}`, ...lines, '', Buffer.concat(chunks).toString('hex')].join('\n'),
          );
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
