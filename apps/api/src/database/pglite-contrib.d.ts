// `@electric-sql/pglite/contrib/*` resolves through the package's exports map, which the
// repository's `node10` module resolution does not read; Node's runtime resolution does.
declare module '@electric-sql/pglite/contrib/btree_gin' {
  import type { Extension } from '@electric-sql/pglite';
  export const btree_gin: Extension;
}
