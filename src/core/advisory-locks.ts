/**
 * @module core/advisory-locks
 * PostgreSQL advisory lock keys (any fixed bigint) shared by the processes on one server (docs/architecture.md,
 * "Failures").
 */

/**
 * Held (session lock) while a process migrates the schema and while it sets up the job queue (pg-boss's schema
 * and queues), so processes started together on a fresh database do that one after another instead of racing
 * each other's DDL and deadlocking.
 */
export const STARTUP_LOCK = 7_315_094_120;
