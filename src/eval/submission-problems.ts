/**
 * @module eval/submission-problems
 * Why a model submission was not stored, approved or rejected, and why an approved one's suite was not queued, as
 * codes and parameters ({@link SubmissionProblem}), and their sentences in a language of the catalogue
 * ({@link submissionProblemText}): `/submit` answers in the caller's language, `zhujiu submissions` in English
 * (docs/architecture.md "Languages"). Each sentence names the field and the fix.
 */
import type { ModelNameIssue } from '../config/model-name.ts';
import { type Locale, type MessageKey, t } from '../i18n/index.ts';

/** The fields of a submission as typed in `/submit` (`org`: the organisation, `url`: the base URL). */
export type SubmissionField = 'name' | 'url' | 'model' | 'description' | 'org' | 'licence';

/** What is wrong with a submission's base URL. */
export type BaseUrlIssue =
  | { readonly code: 'not_url'; readonly url: string }
  /** `scheme`: the URL's, without the colon. */
  | { readonly code: 'not_http'; readonly url: string; readonly scheme: string }
  | { readonly code: 'credentials' }
  | { readonly code: 'too_long'; readonly chars: number; readonly max: number };

/** One problem of a submitted form (several may be told at once). */
export type FormProblem =
  | { readonly code: 'missing'; readonly fields: readonly SubmissionField[] }
  | { readonly code: 'bad_name'; readonly name: string; readonly issue: ModelNameIssue }
  | { readonly code: 'name_configured'; readonly name: string }
  | { readonly code: 'bad_url'; readonly issue: BaseUrlIssue }
  | {
      readonly code: 'too_long';
      readonly field: SubmissionField;
      readonly chars: number;
      readonly max: number;
    };

/** Why a submission, an approval or a rejection was refused. */
export type SubmissionProblem =
  | { readonly code: 'invalid'; readonly problems: readonly FormProblem[] }
  /** The name is held: by a model (`by: 'model'`) or by another submission (`id`, when known). */
  | {
      readonly code: 'name_taken';
      readonly name: string;
      readonly by: 'model' | 'submission';
      readonly id?: number | undefined;
    }
  | { readonly code: 'no_submission'; readonly id: number }
  | {
      readonly code: 'decided';
      readonly id: number;
      readonly status: 'pending' | 'approved' | 'rejected';
    }
  /** A model of its name was registered since it was submitted. */
  | { readonly code: 'name_now_model'; readonly id: number }
  /** `name` was added to config/models.yaml since it was submitted. */
  | { readonly code: 'name_now_configured'; readonly id: number; readonly name: string }
  | { readonly code: 'bad_key_variable'; readonly id: number; readonly variable: string }
  | {
      readonly code: 'key_unset';
      readonly id: number;
      readonly variable: string;
      readonly empty: boolean;
    }
  | { readonly code: 'no_reason'; readonly id: number };

/** What is wrong with a base URL, in `locale`. */
export function baseUrlText(issue: BaseUrlIssue, locale: Locale): string {
  switch (issue.code) {
    case 'not_url':
      return t(locale, 'submitProblem.url.notUrl', { url: issue.url });
    case 'not_http':
      return t(locale, 'submitProblem.url.notHttp', { url: issue.url, scheme: issue.scheme });
    case 'credentials':
      return t(locale, 'submitProblem.url.credentials');
    case 'too_long':
      return t(locale, 'submitProblem.url.tooLong', { n: issue.chars, max: issue.max });
  }
}

/** What breaks the model-name rule (config/model-name.ts), as a phrase after the name, in `locale`. */
export function modelNameIssueText(issue: ModelNameIssue, locale: Locale): string {
  switch (issue.code) {
    case 'too_long':
      return t(locale, 'cli.modelName.tooLong', { n: issue.chars, max: issue.max });
    case 'unprintable':
      return t(locale, 'cli.modelName.unprintable', { char: issue.char });
    case 'outer_space':
      return t(locale, 'cli.modelName.outerSpace');
    default:
      return t(locale, `cli.modelName.${issue.code}`);
  }
}

/** One problem of a submitted form, in `locale`. */
export function formProblemText(p: FormProblem, locale: Locale): string {
  switch (p.code) {
    case 'missing':
      return t(locale, 'submitProblem.missing', {
        fields: p.fields.join(t(locale, 'board.list.sep')),
      });
    case 'bad_name':
      return t(locale, 'submitProblem.badName', {
        name: p.name,
        problem: modelNameIssueText(p.issue, locale),
      });
    case 'name_configured':
      return t(locale, 'submitProblem.nameConfigured', { name: p.name });
    case 'bad_url':
      return baseUrlText(p.issue, locale);
    case 'too_long':
      return t(locale, 'submitProblem.tooLong', { field: p.field, n: p.chars, max: p.max });
  }
}

/** The message keys of the problems that name only the submission's number. */
const BY_ID: Partial<Record<SubmissionProblem['code'], MessageKey>> = {
  no_submission: 'submitProblem.noSubmission',
  name_now_model: 'submitProblem.nameNowModel',
  no_reason: 'submitProblem.noReason',
};

/**
 * The sentence of a refused submission, approval or rejection in `locale` (English for the command line and the
 * logs), naming what to fix.
 */
export function submissionProblemText(p: SubmissionProblem, locale: Locale): string {
  switch (p.code) {
    case 'invalid':
      return t(locale, 'submitProblem.invalid', {
        problems: p.problems
          .map((x) => formProblemText(x, locale))
          .join(t(locale, 'submitProblem.sep')),
      });
    case 'name_taken':
      return p.by === 'model'
        ? t(locale, 'submitProblem.nameTaken.model', { name: p.name })
        : t(locale, 'submitProblem.nameTaken.submission', {
            name: p.name,
            id: p.id === undefined ? '' : t(locale, 'submitProblem.nameTaken.id', { id: p.id }),
          });
    case 'decided':
      return t(locale, 'submitProblem.decided', {
        id: p.id,
        status: t(locale, `submit.status.${p.status}`),
      });
    case 'name_now_configured':
      return t(locale, 'submitProblem.nameNowConfigured', { id: p.id, name: p.name });
    case 'bad_key_variable':
      return t(locale, 'submitProblem.badKeyVariable', { id: p.id, variable: p.variable });
    case 'key_unset':
      return t(locale, p.empty ? 'submitProblem.keyEmpty' : 'submitProblem.keyUnset', {
        id: p.id,
        variable: p.variable,
      });
    default:
      return t(locale, BY_ID[p.code] as MessageKey, { id: p.id });
  }
}
