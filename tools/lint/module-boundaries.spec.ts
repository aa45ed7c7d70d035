import { probeLinter } from './probe-linter';

// The pure libraries must not reach for the framework, the ORM or the driver. This lints
// probe sources as if they lived in those libraries, with the repository's real ESLint config.

const linter = probeLinter();
afterAll(() => linter.close());
const boundaryErrors = (filePath: string, source: string) =>
  linter.errors(filePath, source, '@nx/enforce-module-boundaries');

describe('module boundaries', () => {
  it.each([
    ["import { Injectable } from '@nestjs/common';"],
    ["import { DataSource } from 'typeorm';"],
    ["import { Client } from 'pg';"],
  ])('refuse %s in libs/domain', async (statement) => {
    const errors = await boundaryErrors(
      'libs/domain/src/boundary-probe.ts',
      `${statement}\nexport const x = 1;\n`,
    );
    expect(errors.length).toBe(1);
    expect(errors[0]).toMatch(/tagged with "type:domain" is not allowed to import/);
  });

  it('allow the pure libraries to import node built-ins and each other', async () => {
    const errors = await boundaryErrors(
      'libs/api-keys/src/boundary-probe.ts',
      "import { createHash } from 'node:crypto';\nimport { ERROR_CODES } from '@interlock/domain';\nexport const x = [createHash, ERROR_CODES];\n",
    );
    expect(errors).toEqual([]);
  });

  it('refuse a domain import of a util lib (domain depends on nothing)', async () => {
    const errors = await boundaryErrors(
      'libs/domain/src/boundary-probe.ts',
      "import { generateApiKey } from '@interlock/api-keys';\nexport const x = generateApiKey;\n",
    );
    expect(errors.length).toBe(1);
  });
});
