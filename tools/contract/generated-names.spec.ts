import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Generators suffix a name with a digit when two names collide (an operation `whoami` whose
// response alias met the schema `WhoamiResponse` became `WhoamiResponse2`). A numbered name in
// an SDK is a name nobody chose: rename the operation or the schema instead.
const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

export function numberedTypeScriptNames(source: string): string[] {
  return [...source.matchAll(/^export (?:type|interface|const|class|enum) ([A-Za-z_]\w*\d)\b/gm)].map((m) => m[1]);
}

export function numberedPythonNames(source: string): string[] {
  return [...source.matchAll(/^class ([A-Za-z_]\w*\d)\b/gm)].map((m) => m[1]);
}

describe('generated names', () => {
  it.each(['libs/sdk-ts/src/generated/types.gen.ts', 'libs/api-client/src/generated/types.gen.ts', 'libs/api-client/src/generated/sdk.gen.ts'])(
    '%s has no numbered names',
    (path) => {
      expect(numberedTypeScriptNames(read(path))).toEqual([]);
    },
  );

  it('the Python models have no numbered names', () => {
    expect(numberedPythonNames(read('libs/sdk-python/src/interlock/_generated/models.py'))).toEqual([]);
  });

  it('finds a numbered name when there is one (the check can fail)', () => {
    expect(numberedTypeScriptNames('export type WhoamiResponse = {};\nexport type WhoamiResponse2 = WhoamiResponses[200];\n')).toEqual([
      'WhoamiResponse2',
    ]);
    expect(numberedPythonNames('class Plan(InterlockModel):\n    pass\nclass Plan1(InterlockModel):\n    pass\n')).toEqual(['Plan1']);
  });

  it('sign-in sessions and agent sessions have distinct operation ids', () => {
    const contract = JSON.parse(read('contract/openapi.json')) as { paths: Record<string, Record<string, { operationId?: string }>> };
    const ids = Object.entries(contract.paths).flatMap(([path, ops]) =>
      Object.values(ops).flatMap((op) => (op.operationId ? [{ path, id: op.operationId }] : [])),
    );
    for (const { path, id } of ids) {
      // An auth operation about a session names it a sign-in session.
      if (path.startsWith('/api/auth/')) expect(id.replace(/SignInSession/g, '')).not.toMatch(/session/i);
      if (path.startsWith('/api/sessions')) expect(id).not.toMatch(/SignIn/);
    }
    expect(ids.find((op) => op.path === '/api/auth/session')?.id).toBe('getSignInSession');
  });
});
