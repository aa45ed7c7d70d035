import { applyDecorators } from '@nestjs/common';
import { JoinColumn, ManyToOne, type ObjectType, type RelationOptions } from 'typeorm';

type OnDeleteType = NonNullable<RelationOptions['onDelete']>;

export interface ReferenceOptions {
  /** What deleting the referenced row does; default CASCADE (the row goes with it). */
  onDelete?: OnDeleteType;
  /** The constraint's name where the migration named it. */
  foreignKeyConstraintName?: string;
}

/**
 * A many-to-one reference through one column (`column`, e.g. `organisation_id`, `user_id`):
 * `@ManyToOne` + `@JoinColumn`, declared together as every entity declares them.
 */
export function References<T>(
  target: () => ObjectType<T>,
  column: string,
  { onDelete = 'CASCADE', foreignKeyConstraintName }: ReferenceOptions = {},
): PropertyDecorator {
  return applyDecorators(
    ManyToOne(target, { onDelete }),
    JoinColumn(
      foreignKeyConstraintName === undefined
        ? { name: column }
        : { name: column, foreignKeyConstraintName },
    ),
  ) as PropertyDecorator;
}

/**
 * A many-to-one reference to a row of the same organisation: the composite foreign key
 * (`organisation_id`, `column`) → (`organisationId`, `referenced`, default `id`), so a row can
 * never point into another organisation.
 */
export function ReferencesInOrganisation<T>(
  target: () => ObjectType<T>,
  column: string,
  {
    referenced = 'id',
    onDelete = 'CASCADE',
  }: { referenced?: string; onDelete?: OnDeleteType } = {},
): PropertyDecorator {
  return applyDecorators(
    ManyToOne(target, { onDelete }),
    JoinColumn([
      { name: 'organisation_id', referencedColumnName: 'organisationId' },
      { name: column, referencedColumnName: referenced },
    ]),
  ) as PropertyDecorator;
}
