/**
 * @module storage/pglite-dialect
 * Kysely's PGlite dialect with its one connection handed out in arrival order by a queue.
 *
 * PGlite has one connection, so Kysely lends it to one caller at a time. Kysely's own lock for that (its
 * `ConnectionMutex`, used for every adapter without multiple connections) wakes every waiting caller each time the
 * connection is released, and all but one go back to waiting: with n callers waiting, each query costs n wake-ups.
 * A burst of chat events (thousands of reactions at once, each waiting for its vote statement) then spends more CPU
 * waking waiters than running queries (bench/reactions.ts prints the CPU per event). Here the waiters form a
 * queue and a release wakes the next one only: the same one-at-a-time lending, first come first served, at a
 * constant cost per query.
 */
import {
  type DatabaseConnection,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PGliteAdapter,
  PGliteDialect,
  type PGliteDialectConfig,
} from 'kysely';

/**
 * The adapter Kysely sees: it says the dialect may lend several connections, so Kysely adds no lock of its own;
 * {@link QueuedDriver} lends the one connection in turn instead.
 */
class QueuedAdapter extends PGliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/**
 * Lends the inner driver's single connection to one caller at a time, in the order they asked (a FIFO queue);
 * everything else is the inner driver's. A caller that gave up waiting (Kysely's abort signal) gets the connection
 * when its turn comes and Kysely releases it at once, as it does with a connection acquired after an abort.
 */
class QueuedDriver implements Driver {
  readonly #inner: Driver;
  /** Callers waiting for the connection, first in line first. */
  readonly #waiting: ((() => void) | undefined)[] = [];
  /** Index of the next waiter in {@link #waiting} (the array is compacted when it is all consumed). */
  #head = 0;
  #lent = false;

  constructor(inner: Driver) {
    this.#inner = inner;
  }

  init(options?: Parameters<Driver['init']>[0]): Promise<void> {
    return this.#inner.init(options);
  }

  async acquireConnection(
    options?: Parameters<Driver['acquireConnection']>[0],
  ): Promise<DatabaseConnection> {
    if (this.#lent) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#lent = true;
    try {
      return await this.#inner.acquireConnection(options);
    } catch (err) {
      this.#next();
      throw err;
    }
  }

  async releaseConnection(
    connection: DatabaseConnection,
    options?: Parameters<Driver['releaseConnection']>[1],
  ): Promise<void> {
    try {
      await this.#inner.releaseConnection(connection, options);
    } finally {
      this.#next();
    }
  }

  /** Hands the connection to the next waiter (it stays lent), or marks it free. */
  #next(): void {
    const wake = this.#waiting[this.#head];
    if (wake === undefined) {
      this.#lent = false;
      return;
    }
    this.#waiting[this.#head] = undefined;
    this.#head++;
    if (this.#head === this.#waiting.length) {
      this.#waiting.length = 0;
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#waiting.length) {
      this.#waiting.splice(0, this.#head);
      this.#head = 0;
    }
    // The waiter resumes with `#lent` still true: no caller arriving meanwhile can take the connection.
    wake();
  }

  beginTransaction(...a: Parameters<Driver['beginTransaction']>): Promise<void> {
    return this.#inner.beginTransaction(...a);
  }
  commitTransaction(...a: Parameters<Driver['commitTransaction']>): Promise<void> {
    return this.#inner.commitTransaction(...a);
  }
  rollbackTransaction(...a: Parameters<Driver['rollbackTransaction']>): Promise<void> {
    return this.#inner.rollbackTransaction(...a);
  }
  savepoint(...a: Parameters<NonNullable<Driver['savepoint']>>): Promise<void> {
    return (this.#inner.savepoint as NonNullable<Driver['savepoint']>)(...a);
  }
  rollbackToSavepoint(...a: Parameters<NonNullable<Driver['rollbackToSavepoint']>>): Promise<void> {
    return (this.#inner.rollbackToSavepoint as NonNullable<Driver['rollbackToSavepoint']>)(...a);
  }
  releaseSavepoint(...a: Parameters<NonNullable<Driver['releaseSavepoint']>>): Promise<void> {
    return (this.#inner.releaseSavepoint as NonNullable<Driver['releaseSavepoint']>)(...a);
  }
  destroy(options?: Parameters<Driver['destroy']>[0]): Promise<void> {
    return this.#inner.destroy(options);
  }
}

/**
 * Kysely's {@link PGliteDialect} (same config: the PGlite client, or a function making it) whose single connection is
 * lent to callers in arrival order at a constant cost per query, however many wait (see the module comment).
 */
export class QueuedPGliteDialect implements Dialect {
  readonly #inner: PGliteDialect;

  constructor(config: PGliteDialectConfig) {
    this.#inner = new PGliteDialect(config);
  }

  createAdapter(): DialectAdapter {
    return new QueuedAdapter();
  }
  createDriver(): Driver {
    return new QueuedDriver(this.#inner.createDriver());
  }
  createQueryCompiler(): ReturnType<Dialect['createQueryCompiler']> {
    return this.#inner.createQueryCompiler();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's introspector takes any database
  createIntrospector(db: Kysely<any>): ReturnType<Dialect['createIntrospector']> {
    return this.#inner.createIntrospector(db);
  }
}
