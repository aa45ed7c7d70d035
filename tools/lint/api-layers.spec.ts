import { probeLinter } from './probe-linter';

// The service's layers (ARCHITECTURE.md): services speak no HTTP, and SQL stays with the tables'
// owners. Probe sources are linted as if they lived in apps/api, with the real ESLint config.

const linter = probeLinter();
afterAll(() => linter.close());
const errors = linter.errors;

const SERVICE = 'apps/api/src/widgets/widgets.service.ts';
const REPOSITORY = 'apps/api/src/widgets/widgets.repository.ts';
const CONTROLLER = 'apps/api/src/widgets/widgets.controller.ts';

describe('API layers', () => {
  it('refuse Express in a service or a repository', async () => {
    const source = "import type { Request } from 'express';\nexport type X = Request;\n";
    expect(await errors(SERVICE, source, 'no-restricted-imports')).toEqual([
      "'express' import is restricted from being used. Services do not speak HTTP: take values, let the controller read the request and write the response.",
    ]);
    expect(await errors(REPOSITORY, source, 'no-restricted-imports')).toHaveLength(1);
    expect(await errors(CONTROLLER, source, 'no-restricted-imports')).toEqual([]);
  });

  it("refuse Nest's HTTP exceptions in a service, not the rest of @nestjs/common", async () => {
    expect(
      await errors(
        SERVICE,
        "import { Injectable, NotFoundException } from '@nestjs/common';\nexport const x = [Injectable, NotFoundException];\n",
        'no-restricted-imports',
      ),
    ).toHaveLength(1);
    expect(
      await errors(
        SERVICE,
        "import { HttpException } from '@nestjs/common';\nexport const x = HttpException;\n",
        'no-restricted-imports',
      ),
    ).toHaveLength(1);
    expect(
      await errors(
        SERVICE,
        "import { Injectable, Inject } from '@nestjs/common';\nexport const x = [Injectable, Inject];\n",
        'no-restricted-imports',
      ),
    ).toEqual([]);
  });

  it("refuse the HTTP layer's error in a service: it throws the domain's", async () => {
    expect(
      await errors(
        SERVICE,
        "import { ApiError } from '../http/api-error';\nexport const x = ApiError;\n",
        'no-restricted-imports',
      ),
    ).toHaveLength(1);
    expect(
      await errors(
        SERVICE,
        "import { DomainError } from '@interlock/domain';\nexport const x = DomainError;\n",
        'no-restricted-imports',
      ),
    ).toEqual([]);
  });

  it('refuse an HTTP DTO in a service (it takes a command), not the response types it returns', async () => {
    const source = [
      "import { CreateWidgetDto } from './dto/create-widget.dto';",
      "import type { ListWidgetsQuery } from './dto/list-widgets.dto';",
      "import type { WidgetResponse } from './dto/widget.dto';",
      "import type { CreateWidgetCommand } from './create-widget.command';",
      'export type X = [CreateWidgetDto, ListWidgetsQuery, WidgetResponse, CreateWidgetCommand];',
    ].join('\n');
    const refused = await errors(SERVICE, source, 'no-restricted-imports');
    expect(refused).toHaveLength(2);
    expect(refused[0]).toContain('Services take command types (*.command.ts), not HTTP DTOs');
    expect(await errors(CONTROLLER, source, 'no-restricted-imports')).toEqual([]);
  });

  it('refuse SQL outside the owner of the table', async () => {
    const sql = [
      "export const a = (db: { query(s: string): unknown }) => db.query('SELECT id FROM widgets WHERE organisation_id = $1');",
      'export const b = (db: { query(s: string): unknown }, id: string) => db.query(`\n  DELETE FROM widgets WHERE id = ${id}`);',
      "export const c = 'INSERT INTO widgets (id) VALUES ($1)';",
      "export const d = 'UPDATE widgets SET name = $2';",
    ].join('\n');
    expect(await errors(SERVICE, sql, 'no-restricted-syntax')).toHaveLength(4);
    expect(await errors(CONTROLLER, sql, 'no-restricted-syntax')).toHaveLength(4);
    expect(await errors(REPOSITORY, sql, 'no-restricted-syntax')).toEqual([]);
    expect(
      await errors('apps/api/src/widgets/widget-cleanup.job.ts', sql, 'no-restricted-syntax'),
    ).toEqual([]);
  });

  it('leave prose alone', async () => {
    const prose =
      "export const m = 'Select a role first.';\nexport const n = `Update the webhook ${1}`;\n";
    expect(await errors(SERVICE, prose, 'no-restricted-syntax')).toEqual([]);
  });
});
