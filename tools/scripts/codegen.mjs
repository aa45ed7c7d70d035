#!/usr/bin/env node
// The one contract and the code generated from it:
//   1. contract/openapi.json, emitted from the Nest app (nx run api:openapi),
//   2. libs/sdk-ts/src/generated/** by @hey-api/openapi-ts (types only: no runtime dependency),
//   3. libs/sdk-python/src/interlock/_generated/** by datamodel-code-generator (pydantic v2),
//   4. libs/api-client/src/generated/** by @hey-api/openapi-ts (types, one function per operation
//      and the fetch client): the dashboard's typed client.
// Generators never write the hand-written layers (src/lib, the rest of src/interlock).
//
//   node tools/scripts/codegen.mjs           regenerate everything
//   node tools/scripts/codegen.mjs --check   regenerate, then fail if anything differs from git
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const check = process.argv.includes('--check');
const GENERATED = [
  'contract',
  'libs/sdk-ts/src/generated',
  'libs/sdk-python/src/interlock/_generated',
  'libs/api-client/src/generated',
];

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    ...options,
  });
  if (result.status !== 0) fail(cmd, args, result.status);
}

function fail(cmd, args, status) {
  console.error(`[codegen] failed: ${cmd} ${args.join(' ')}`);
  process.exit(status ?? 1);
}

/** `run` without waiting: resolves when the command has succeeded (a failure ends codegen). */
function started(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      ...options,
    });
    child.on('error', () => fail(cmd, args, 1));
    child.on('exit', (code) => (code === 0 ? resolve() : fail(cmd, args, code)));
  });
}

const t0 = Date.now();
const took = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;

const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };
// The generator's venv (datamodel-code-generator's own, `python-sdk.mjs --venv codegen`, cached
// outside the checkout) does not depend on the contract: it is found or made while the service
// builds. Not the whole dev venv: in a fresh clone its pip run was most of the check's time.
const codegenVenv = ['tools/scripts/python-sdk.mjs', '--venv', 'codegen'];
const pythonReady = started(process.execPath, [...codegenVenv, 'setup'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
console.log('[codegen] contract/openapi.json');
run('npx', ['nx', 'run', 'api:build', '--outputStyle=static'], {
  env,
  stdio: ['ignore', 'ignore', 'inherit'],
});
run(process.execPath, ['dist/apps/api/openapi.js', 'contract/openapi.json']);

// Both generators read a copy of the contract that is looser in three ways, for the SDKs' sake:
// its recursive JsonValue (free-form JSON with no NUL) is plain free-form JSON — the SDKs take
// any object for args and metadata, as they always did (the service refuses NUL itself), and
// datamodel-codegen recurses without end collapsing JsonValue — and unions carry no
// `discriminator` (the Python models keep enums open to new values, and pydantic discriminates
// only on closed literals; a plain union parses the same), and an anyOf that only says which of
// an object's fields must be present is left to the service (onlySaysWhichFieldsArePresent).
const sdkContract = join(root, 'tmp', 'codegen-sdk-openapi.json');
mkdirSync(join(root, 'tmp'), { recursive: true });
writeFileSync(
  sdkContract,
  JSON.stringify(
    forSdkGenerators(JSON.parse(readFileSync(join(root, 'contract/openapi.json'), 'utf8'))),
  ),
);
console.log(`[codegen] contract/openapi.json written (${took()})`);

// The three generators side by side (each writes only its own folder and reads only the contract):
// `npm test` waits for codegen before its nx run, and one after the other they left a core idle.
const generated = (what, done) => done.then(() => console.log(`[codegen] ${what} (${took()})`));
const header =
  '# Generated from contract/openapi.json by datamodel-code-generator (tools/scripts/codegen.mjs). Do not edit.';
const pyOut = join(root, 'libs/sdk-python/src/interlock/_generated');
await Promise.all([
  generated(
    'libs/sdk-ts/src/generated (@hey-api/openapi-ts)',
    openapiTs(sdkContract, 'libs/sdk-ts/src/generated', ['-p', '@hey-api/typescript']),
  ),
  generated(
    'libs/api-client/src/generated (@hey-api/openapi-ts, fetch client)',
    openapiTs('./contract/openapi.json', 'libs/api-client/src/generated', [
      '-c',
      '@hey-api/client-fetch',
      '-p',
      '@hey-api/typescript',
      '@hey-api/sdk',
    ]),
  ),
  generated(
    'libs/sdk-python/src/interlock/_generated (datamodel-code-generator)',
    pythonReady.then(() => pythonModels(sdkContract, pyOut, header)),
  ),
]);

/** @hey-api/openapi-ts from `input` into `out` (emptied first), with the client and plugin options. */
function openapiTs(input, out, options) {
  rmSync(join(root, out), { recursive: true, force: true });
  return started('npx', ['openapi-ts', '-i', input, '-o', out, ...options, '--no-log-file', '-s'], {
    env,
  });
}

/** The Python SDK's pydantic models (datamodel-code-generator) in `out`, enums left open. */
async function pythonModels(input, out, header) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const options = [
    '--input',
    input,
    '--input-file-type',
    'openapi',
    '--output',
    join(out, 'models.py'),
    '--output-model-type',
    'pydantic_v2.BaseModel',
    '--target-python-version',
    '3.9',
    '--snake-case-field',
    '--allow-population-by-field-name',
    '--use-standard-collections',
    '--use-schema-description',
    '--use-field-description',
    '--enum-field-as-literal',
    'all',
    '--field-constraints',
    '--disable-timestamp',
    '--extra-fields',
    'allow',
    // Required-but-nullable fields stay Optional; enums become Literal fields, not RootModels.
    '--strict-nullable',
    '--collapse-root-models',
    // Only httpx and pydantic at run time: no email-validator for EmailStr, no SecretStr in models.
    // Ids stay strings (as in the TypeScript SDK and openai-python), so results serialise with json.dumps.
    '--type-mappings',
    'string+email=string',
    'string+password=string',
    'string+uuid=string',
    // The SDK's own base model: carries the request id of the response a model was read from.
    '--base-class',
    'interlock._models.InterlockModel',
    '--custom-file-header',
    header,
  ];
  await started(process.execPath, [...codegenVenv, 'exec', 'datamodel-codegen', ...options], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  openEnums(join(out, 'models.py'));
  writeFileSync(join(out, '__init__.py'), `${header}\nfrom .models import *  # noqa: F401,F403\n`);
}

/**
 * `anyOf: [{required: [a]}, {required: [b]}]` says only which of an object's own fields must be
 * present (RespondDecision: a message, a response, or both). The service checks it; for the SDK
 * generators it is dropped, since datamodel-codegen would turn the object into numbered copies of
 * itself (RespondDecision1, RespondDecision2) and openapi-ts into `unknown & {…}`.
 */
function onlySaysWhichFieldsArePresent(alternatives) {
  return (
    Array.isArray(alternatives) &&
    alternatives.every(
      (a) =>
        a !== null &&
        typeof a === 'object' &&
        Object.keys(a).length === 1 &&
        Array.isArray(a.required),
    )
  );
}

/** The contract with plain free-form JSON, no discriminators and no presence-only anyOf (see above). */
function forSdkGenerators(contract) {
  const plain = { JsonValue: {}, JsonObject: { type: 'object', additionalProperties: true } };
  const replace = (node) => {
    if (Array.isArray(node)) return node.map(replace);
    if (node === null || typeof node !== 'object') return node;
    const target =
      typeof node.$ref === 'string' ? node.$ref.replace('#/components/schemas/', '') : undefined;
    if (target !== undefined && plain[target] !== undefined) {
      return {
        ...plain[target],
        ...Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$ref')),
      };
    }
    const union = Array.isArray(node.oneOf) || Array.isArray(node.anyOf);
    return Object.fromEntries(
      Object.entries(node)
        .filter(([k]) => !(union && k === 'discriminator'))
        .filter(([k, v]) => !(k === 'anyOf' && onlySaysWhichFieldsArePresent(v)))
        .map(([k, v]) => [k, replace(v)]),
    );
  };
  const copy = replace(contract);
  for (const name of Object.keys(plain)) delete copy.components.schemas[name];
  return copy;
}

/**
 * Open enums: every `Literal['a', 'b']` of the generated models becomes `Union[Literal['a', 'b'], str]`,
 * so a value the service adds later parses as its plain string instead of failing validation in an
 * older SDK (pydantic's smart union keeps the literal when it matches). The SDK's own `Literal`
 * aliases in interlock/types.py stay closed for arguments.
 */
function openEnums(file) {
  let source = readFileSync(file, 'utf8');
  const literal = /Literal\[(\s*'[^']*'(?:\s*,\s*'[^']*')*\s*,?\s*)\]/g;
  source = source.replace(
    literal,
    (_match, values) => `Union[Literal[${values.trim().replace(/,$/, '')}], str]`,
  );
  const imports = /^from typing import (.*)$/m;
  const names = new Set(imports.exec(source)[1].split(', '));
  names.add('Union');
  source = source.replace(imports, `from typing import ${[...names].sort().join(', ')}`);
  writeFileSync(file, source);
}

if (check) {
  const status = spawnSync('git', ['status', '--porcelain', '--', ...GENERATED], {
    cwd: root,
    encoding: 'utf8',
  });
  if (status.stdout.trim() !== '') {
    spawnSync('git', ['--no-pager', 'diff', '--stat', '--', ...GENERATED], {
      cwd: root,
      stdio: 'inherit',
    });
    console.error(
      '[codegen] the contract or the generated SDK code differs from what is committed:\n' +
        status.stdout +
        'Run `node tools/scripts/codegen.mjs` and commit the result (a DTO or route changed without regenerating).',
    );
    process.exit(1);
  }
  console.log('[codegen] contract and generated code are up to date');
}
