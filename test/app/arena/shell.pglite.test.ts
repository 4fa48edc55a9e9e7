// The arena through the terminal adapter on embedded PGlite; the tests are in shell.shared.ts.
import { shellTests } from './shell.shared.ts';

shellTests('pglite');
