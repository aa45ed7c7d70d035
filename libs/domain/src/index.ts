export * from './errors';
export * from './permissions';
export * from './plans';
export * from './audit';
export * from './events';
export * from './audit-events';
export * from './json-text';
export * from './notifications';
