// Stopping and resuming evaluation work on embedded PGlite (bot-judge); the tests are in stop-resume.shared.ts.
import { stopResumeTests } from './stop-resume.shared.ts';

stopResumeTests('pglite', 'bot-judge');
