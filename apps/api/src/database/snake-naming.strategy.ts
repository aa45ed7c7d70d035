import { DefaultNamingStrategy } from 'typeorm';

/** `organisationId` → `organisation_id`: SQL stays snake_case without a name on every column. */
export class SnakeNamingStrategy extends DefaultNamingStrategy {
  override columnName(
    propertyName: string,
    customName: string | undefined,
    prefixes: string[],
  ): string {
    const name = customName ?? propertyName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    return prefixes.length > 0 ? `${prefixes.join('_')}_${name}` : name;
  }
}
