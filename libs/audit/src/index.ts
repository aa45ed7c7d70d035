export * from './audit-writer';
