/**
 * @module storage/fill-state
 * The writing state a template fill's thread (storage/template-fill-worker) shares with the main thread
 * (storage/template-fill): one Int32 in a SharedArrayBuffer, so that the process's end can stop the thread's
 * writes and wait, without the event loop, until the file being written is written.
 */

/** The fill's thread may be writing. */
export const FILL_WRITING = 0;
/** The process is ending: the fill's thread is to write nothing more, and says so by {@link FILL_IDLE}. */
export const FILL_STOP_ASKED = 1;
/** The fill's thread writes nothing more (it stopped when asked, or its unpacking ended). */
export const FILL_IDLE = 2;
