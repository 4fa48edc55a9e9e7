export * from './battles.ts';
export * from './db.ts';
export * from './eval-datasets.ts';
export * from './items.ts';
export * from './models.ts';
export * from './responses.ts';
export * from './schema.ts';
export * from './votes.ts';
