import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { AGENT_SCRIPT, AgentSnippet } from './agent-snippet';

/** The first ```js block under "## The first five minutes" of the repository's README. */
function readmeAgent(): string {
  const readme = readFileSync(join(__dirname, '../../../../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## The first five minutes'));
  const block = /\n( *)```js\n([\s\S]*?)\n\1```/.exec(section);
  if (block === null) throw new Error('no ```js block under "The first five minutes"');
  const indent = block[1];
  return `${block[2]
    .split('\n')
    .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
    .join('\n')}\n`;
}

describe('AgentSnippet', () => {
  it('is the README’s first agent, verbatim (the SDK’s package test runs that block)', () => {
    expect(AGENT_SCRIPT).toBe(readmeAgent());
  });

  it('installs the SDK from this server and points the agent at its address', async () => {
    server.use(
      http.get(`${window.location.origin}/downloads`, () =>
        HttpResponse.json({
          packages: [
            {
              name: '@interlock/sdk',
              kind: 'npm',
              version: '0.1.0',
              file: 'interlock-sdk-0.1.0.tgz',
              path: '/downloads/interlock-sdk-0.1.0.tgz',
              sha256: 'ab',
              size: 1,
            },
          ],
        }),
      ),
    );
    renderWithApp(<AgentSnippet origin="https://interlock.example.com" />);
    const commands = screen.getByLabelText('Commands to run the agent');
    expect(
      await screen.findByText(
        /^npm install https:\/\/interlock\.example\.com\/downloads\/interlock-sdk-0\.1\.0\.tgz/,
      ),
    ).toBe(commands);
    expect(commands.textContent?.split('\n')).toEqual([
      'npm install https://interlock.example.com/downloads/interlock-sdk-0.1.0.tgz',
      'export INTERLOCK_API_KEY=ilk_…   # your key (Integrations → Api Keys)',
      'export INTERLOCK_BASE_URL=https://interlock.example.com',
      'node agent.mjs                   # agent.mjs: the code below',
    ]);
    expect(
      screen.getByLabelText('Agent code using the TypeScript SDK (agent.mjs)'),
    ).toHaveTextContent('const client = new Interlock();');
  });

  it('says how to build the SDK when this server offers no package', async () => {
    renderWithApp(<AgentSnippet origin="http://10.0.0.5:3000" />);
    expect(await screen.findByLabelText('Commands to run the agent')).toHaveTextContent(
      /build it from the repository.*export INTERLOCK_BASE_URL=http:\/\/10\.0\.0\.5:3000/s,
    );
  });
});
