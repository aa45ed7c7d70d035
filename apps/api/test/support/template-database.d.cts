// The types of template-database.cjs (CommonJS: Jest's globalSetup loads it as it is).
declare function setup(): Promise<void>;
declare namespace setup {
  function teardown(): Promise<void>;
  function nameTemplate(): string;
  function ensureMigratedTemplate(
    adminUrl: string,
    name: string,
    migrate: (url: string) => Promise<void>,
  ): Promise<string>;
  function dropTemplate(adminUrl: string, name: string): Promise<void>;
}
export = setup;
