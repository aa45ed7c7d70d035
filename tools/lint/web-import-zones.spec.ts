import { probeLinter } from './probe-linter';

// The dashboard's import zones (docs/STYLE.md §13): shared → features → app, never feature to
// feature; across areas through the `@/` alias, never `../../…`. Probe sources are linted as if they lived in apps/web, with the real ESLint config.

const linter = probeLinter();
afterAll(() => linter.close());
const zoneErrors = (filePath: string, source: string) =>
  linter.errors(filePath, source, 'no-restricted-imports');

describe('dashboard import zones', () => {
  it('refuse a feature importing another feature', async () => {
    const errors = await zoneErrors(
      'apps/web/src/features/roles/components/zone-probe.tsx',
      "import { useApiKeys } from '@/features/api-keys/api/api-keys.queries';\nexport const x = useApiKeys;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/A feature may not import another feature/);
  });

  it('refuse shared code importing a feature or the app', async () => {
    expect(
      await zoneErrors(
        'apps/web/src/shared/components/zone-probe.tsx',
        "import { InboxRoute } from '@/features/interrupts/routes/inbox.route';\nexport const x = InboxRoute;\n",
      ),
    ).toHaveLength(1);
    expect(
      await zoneErrors(
        'apps/web/src/shared/components/zone-probe.tsx',
        "import { App } from '@/app/app';\nexport const x = App;\n",
      ),
    ).toHaveLength(1);
  });

  it('refuse a feature importing the app', async () => {
    expect(
      await zoneErrors(
        'apps/web/src/features/teams/routes/zone-probe.tsx',
        "import { router } from '@/app/router';\nexport const x = router;\n",
      ),
    ).toHaveLength(1);
  });

  it('refuse reaching another area with ../../ instead of @/', async () => {
    const errors = await zoneErrors(
      'apps/web/src/features/teams/routes/zone-probe.tsx',
      "import { useCan } from '../../../shared/session/session.queries';\nexport const x = useCan;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/Import from another area of the dashboard with @\//);
  });

  it('allow features to use shared code, and the app to place features', async () => {
    expect(
      await zoneErrors(
        'apps/web/src/features/teams/routes/zone-probe.tsx',
        "import { useCan } from '@/shared/session/session.queries';\nexport const x = useCan;\n",
      ),
    ).toEqual([]);
    expect(
      await zoneErrors(
        'apps/web/src/app/zone-probe.tsx',
        "import { InboxRoute } from '@/features/interrupts/routes/inbox.route';\nexport const x = InboxRoute;\n",
      ),
    ).toEqual([]);
  });
});
