export * from './audit-writer';
export * from './audit-cursor';
export * from './audit-query';
export * from './search-words';
export * from './chain-verifier';
export * from './search-plan';
export * from './target-history';
export * from './audit-stream';
