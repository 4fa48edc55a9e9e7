export * from './batch.ts';
export * from './clock.ts';
export * from './errors.ts';
export * from './logger.ts';
export * from './result.ts';
export * from './rng.ts';
export * from './utf8.ts';
export * from './voter-id.ts';
