export * from './db.ts';
export * from './schema.ts';
export * from './models.ts';
export * from './items.ts';
export * from './responses.ts';
export * from './battles.ts';
export * from './votes.ts';
