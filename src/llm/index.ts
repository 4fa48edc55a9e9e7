export * from './auth-breaker.ts';
export * from './factory.ts';
export * from './openai-client.ts';
export * from './recorded-client.ts';
export * from './request-hash.ts';
export * from './response-cache.ts';
export * from './types.ts';
