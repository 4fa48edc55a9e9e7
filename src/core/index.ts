export * from './errors.ts';
export * from './result.ts';
export * from './clock.ts';
export * from './rng.ts';
export * from './logger.ts';
export * from './voter-id.ts';
