import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The dashboard's import zones (docs/STYLE.md §13): shared → features → app, never feature to
// feature; across areas through the `@/` alias, never `../../…`. Probe sources are linted as if they lived in apps/web, with the real ESLint config.
const root = join(__dirname, '..', '..');

function zoneErrors(filePath: string, source: string): string[] {
  const result = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/eslint/bin/eslint.js'),
      '--format',
      'json',
      '--stdin',
      '--stdin-filename',
      filePath,
    ],
    { cwd: root, input: source, encoding: 'utf8' },
  );
  const [report] = JSON.parse(result.stdout) as {
    messages: { ruleId: string; severity: number; message: string }[];
  }[];
  return report.messages
    .filter((m) => m.ruleId === 'no-restricted-imports' && m.severity === 2)
    .map((m) => m.message);
}

describe('dashboard import zones', () => {
  it('refuse a feature importing another feature', () => {
    const errors = zoneErrors(
      'apps/web/src/features/roles/components/zone-probe.tsx',
      "import { useApiKeys } from '@/features/api-keys/api/api-keys.queries';\nexport const x = useApiKeys;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/A feature may not import another feature/);
  });

  it('refuse shared code importing a feature or the app', () => {
    expect(
      zoneErrors(
        'apps/web/src/shared/components/zone-probe.tsx',
        "import { InboxRoute } from '@/features/interrupts/routes/inbox.route';\nexport const x = InboxRoute;\n",
      ),
    ).toHaveLength(1);
    expect(
      zoneErrors(
        'apps/web/src/shared/components/zone-probe.tsx',
        "import { App } from '@/app/app';\nexport const x = App;\n",
      ),
    ).toHaveLength(1);
  });

  it('refuse a feature importing the app', () => {
    expect(
      zoneErrors(
        'apps/web/src/features/teams/routes/zone-probe.tsx',
        "import { router } from '@/app/router';\nexport const x = router;\n",
      ),
    ).toHaveLength(1);
  });

  it('refuse reaching another area with ../../ instead of @/', () => {
    const errors = zoneErrors(
      'apps/web/src/features/teams/routes/zone-probe.tsx',
      "import { useCan } from '../../../shared/session/session.queries';\nexport const x = useCan;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/Import from another area of the dashboard with @\//);
  });

  it('allow features to use shared code, and the app to place features', () => {
    expect(
      zoneErrors(
        'apps/web/src/features/teams/routes/zone-probe.tsx',
        "import { useCan } from '@/shared/session/session.queries';\nexport const x = useCan;\n",
      ),
    ).toEqual([]);
    expect(
      zoneErrors(
        'apps/web/src/app/zone-probe.tsx',
        "import { InboxRoute } from '@/features/interrupts/routes/inbox.route';\nexport const x = InboxRoute;\n",
      ),
    ).toEqual([]);
  });
});
