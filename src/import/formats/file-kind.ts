/**
 * @module import/formats/file-kind
 * What a recorded file is (by its contents, not its name) and the command that imports it, so that a file or a
 * folder given to the wrong importer or `--format` gets a hint that works for that input. Pure: text in.
 */
import { fileRowKind } from './sniff.ts';

/** The kinds of recorded files the importers take. */
export type RecordedFileKind =
  | 'gaokao_judged'
  | 'gaokao_human'
  | 'gaokao_objective'
  | 'alpaca_annotations'
  | 'alpaca_outputs'
  | 'outputs_jsonl'
  | 'battles'
  | 'labels'
  | 'unknown';

/**
 * The kind of a recorded file from its text: a GAOKAO-Bench result file (an object with `keyword` and `example`;
 * judged when its examples carry `model_correction_score` or it names a `teacher_model_name`, human-graded when they
 * carry the teachers' `correction_score`), else the kind of its
 * rows ({@link fileRowKind}): AlpacaEval annotations or model outputs, `{item, prompt, output}` outputs, battles,
 * `{item, label}` labels.
 */
export function recordedFileKind(text: string): RecordedFileKind {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (body.startsWith('{')) {
    let obj: unknown;
    try {
      obj = JSON.parse(body);
    } catch {
      obj = undefined;
    }
    if (typeof obj === 'object' && obj !== null && 'keyword' in obj && 'example' in obj) {
      const first = Array.isArray((obj as { example: unknown }).example)
        ? ((obj as { example: unknown[] }).example[0] as Record<string, unknown> | undefined)
        : undefined;
      if (
        'teacher_model_name' in obj ||
        (typeof first === 'object' && first !== null && 'model_correction_score' in first)
      )
        return 'gaokao_judged';
      return typeof first === 'object' && first !== null && 'correction_score' in first
        ? 'gaokao_human'
        : 'gaokao_objective';
    }
  }
  const rows = fileRowKind(body);
  switch (rows) {
    case 'annotations':
      return 'alpaca_annotations';
    case 'outputs':
      return 'alpaca_outputs';
    case 'outputs_jsonl':
      return 'outputs_jsonl';
    case 'battles':
    case 'pair_counts':
      return 'battles';
    case 'labels':
      return 'labels';
    default:
      return 'unknown';
  }
}

/**
 * The command that imports a file (or, for GAOKAO-Bench result files, the folder `dir` holding them) of `kind`,
 * or undefined for an unknown kind. `NAME` stands for what the user must choose.
 */
export function importCommandFor(
  kind: RecordedFileKind,
  file: string,
  dir: string,
): string | undefined {
  switch (kind) {
    case 'gaokao_judged':
      return `zhujiu import judgments ${dir} --format gaokao --judge NAME`;
    case 'gaokao_human':
      return `zhujiu import judgments ${dir} --format gaokao-human --judge NAME`;
    case 'gaokao_objective':
      return `zhujiu import outputs ${dir} --format gaokao --model NAME`;
    case 'alpaca_annotations':
      return `zhujiu import judgments ${file} --format alpaca_eval --judge NAME`;
    case 'alpaca_outputs':
      return `zhujiu import outputs ${file} --model NAME`;
    case 'outputs_jsonl':
      return `zhujiu import outputs ${file} --format jsonl --model NAME`;
    case 'battles':
      return `zhujiu import battles ${file}`;
    case 'labels':
      return `zhujiu judge agree ${file} OTHER.jsonl`;
    default:
      return undefined;
  }
}

/** What a kind is, in words. */
export const RECORDED_KIND_WORDS: Readonly<Record<RecordedFileKind, string>> = {
  gaokao_judged: 'GAOKAO-Bench judged result files',
  gaokao_human: "GAOKAO-Bench human-graded result files (teachers' scores)",
  gaokao_objective: 'GAOKAO-Bench objective result files (model answers, not judgments)',
  alpaca_annotations: 'AlpacaEval annotations',
  alpaca_outputs: 'AlpacaEval model outputs (not judgments)',
  outputs_jsonl: 'model outputs ({item, prompt, output}; not judgments)',
  battles: 'arena battles',
  labels: '{item, label} labels',
  unknown: 'files of no kind zhujiu imports',
};
