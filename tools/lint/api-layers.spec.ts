import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The service's layers (ARCHITECTURE.md): services speak no HTTP, and SQL stays with the tables'
// owners. Probe sources are linted as if they lived in apps/api, with the real ESLint config.
const root = join(__dirname, '..', '..');

function errors(filePath: string, source: string, ruleId: string): string[] {
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
    .filter((m) => m.ruleId === ruleId && m.severity === 2)
    .map((m) => m.message);
}

const SERVICE = 'apps/api/src/widgets/widgets.service.ts';
const REPOSITORY = 'apps/api/src/widgets/widgets.repository.ts';
const CONTROLLER = 'apps/api/src/widgets/widgets.controller.ts';

describe('API layers', () => {
  it('refuse Express in a service or a repository', () => {
    const source = "import type { Request } from 'express';\nexport type X = Request;\n";
    expect(errors(SERVICE, source, 'no-restricted-imports')).toEqual([
      "'express' import is restricted from being used. Services do not speak HTTP: take values, let the controller read the request and write the response.",
    ]);
    expect(errors(REPOSITORY, source, 'no-restricted-imports')).toHaveLength(1);
    expect(errors(CONTROLLER, source, 'no-restricted-imports')).toEqual([]);
  });

  it("refuse Nest's HTTP exceptions in a service, not the rest of @nestjs/common", () => {
    expect(
      errors(
        SERVICE,
        "import { Injectable, NotFoundException } from '@nestjs/common';\nexport const x = [Injectable, NotFoundException];\n",
        'no-restricted-imports',
      ),
    ).toHaveLength(1);
    expect(
      errors(
        SERVICE,
        "import { HttpException } from '@nestjs/common';\nexport const x = HttpException;\n",
        'no-restricted-imports',
      ),
    ).toHaveLength(1);
    expect(
      errors(
        SERVICE,
        "import { Injectable, Inject } from '@nestjs/common';\nexport const x = [Injectable, Inject];\n",
        'no-restricted-imports',
      ),
    ).toEqual([]);
  });

  it("refuse the HTTP layer's error in a service: it throws the domain's", () => {
    expect(
      errors(
        SERVICE,
        "import { ApiError } from '../http/api-error';\nexport const x = ApiError;\n",
        'no-restricted-imports',
      ),
    ).toHaveLength(1);
    expect(
      errors(
        SERVICE,
        "import { DomainError } from '@interlock/domain';\nexport const x = DomainError;\n",
        'no-restricted-imports',
      ),
    ).toEqual([]);
  });

  it('refuse an HTTP DTO in a service (it takes a command), not the response types it returns', () => {
    const source = [
      "import { CreateWidgetDto } from './dto/create-widget.dto';",
      "import type { ListWidgetsQuery } from './dto/list-widgets.dto';",
      "import type { WidgetResponse } from './dto/widget.dto';",
      "import type { CreateWidgetCommand } from './create-widget.command';",
      'export type X = [CreateWidgetDto, ListWidgetsQuery, WidgetResponse, CreateWidgetCommand];',
    ].join('\n');
    const refused = errors(SERVICE, source, 'no-restricted-imports');
    expect(refused).toHaveLength(2);
    expect(refused[0]).toContain('Services take command types (*.command.ts), not HTTP DTOs');
    expect(errors(CONTROLLER, source, 'no-restricted-imports')).toEqual([]);
  });

  it('refuse SQL outside the owner of the table', () => {
    const sql = [
      "export const a = (db: { query(s: string): unknown }) => db.query('SELECT id FROM widgets WHERE organisation_id = $1');",
      'export const b = (db: { query(s: string): unknown }, id: string) => db.query(`\n  DELETE FROM widgets WHERE id = ${id}`);',
      "export const c = 'INSERT INTO widgets (id) VALUES ($1)';",
      "export const d = 'UPDATE widgets SET name = $2';",
    ].join('\n');
    expect(errors(SERVICE, sql, 'no-restricted-syntax')).toHaveLength(4);
    expect(errors(CONTROLLER, sql, 'no-restricted-syntax')).toHaveLength(4);
    expect(errors(REPOSITORY, sql, 'no-restricted-syntax')).toEqual([]);
    expect(
      errors('apps/api/src/widgets/widget-cleanup.job.ts', sql, 'no-restricted-syntax'),
    ).toEqual([]);
  });

  it('leave prose alone', () => {
    const prose =
      "export const m = 'Select a role first.';\nexport const n = `Update the webhook ${1}`;\n";
    expect(errors(SERVICE, prose, 'no-restricted-syntax')).toEqual([]);
  });
});
