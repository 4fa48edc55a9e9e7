// Counts the tests of every vitest JSON result file of a CI run: one line per run, then the closing line
// `tests: N passed, N failed, N skipped` over all of them; each failed test is named under its run. Usage: node .ci/count-tests.mjs DIR RUN...
// (DIR/RUN.json each). A run without its file counts as failed (exit code 1).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, ...runs] = process.argv.slice(2);
const total = { passed: 0, failed: 0, skipped: 0 };
let missing = 0;
for (const run of runs) {
  const file = join(dir, `${run}.json`);
  if (!existsSync(file)) {
    console.log(`  ${run}: no results (the run did not finish)`);
    missing++;
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const n = {
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: r.numPendingTests + r.numTodoTests,
  };
  for (const k of Object.keys(total)) total[k] += n[k];
  console.log(`  ${run}: ${n.passed} passed / ${n.failed} failed / ${n.skipped} skipped`);
  // Name each failed test with the first line of its message, so the failure shows in CI's printed tail.
  for (const f of r.testResults ?? []) {
    for (const a of f.assertionResults ?? []) {
      if (a.status !== 'failed') continue;
      const msg = String(a.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
      console.log(`    FAILED ${f.name.replace(`${process.cwd()}/`, '')} > ${a.fullName}: ${msg}`);
    }
    if (f.status === 'failed' && (f.assertionResults ?? []).every((a) => a.status !== 'failed')) {
      console.log(`    FAILED ${f.name.replace(`${process.cwd()}/`, '')}: ${String(f.message ?? '').split('\n')[0].slice(0, 300)}`);
    }
  }
}
console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exitCode = missing > 0 ? 1 : 0;
