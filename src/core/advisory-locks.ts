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

/**
 * Held (transaction lock) by an insert into `eval_runs` while it takes the next run number (the largest id plus
 * one; migration 0019), so runs created at once by several processes get consecutive, distinct numbers.
 */
export const RUN_NUMBER_LOCK = 7_315_094_121;

/** The same as {@link RUN_NUMBER_LOCK} for submission numbers (`submissions.id`, migration 0019). */
export const SUBMISSION_NUMBER_LOCK = 7_315_094_122;
