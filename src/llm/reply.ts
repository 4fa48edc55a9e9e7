/**
 * @module llm/reply
 * The one place that reads a chat-completions reply: it separates the model's reasoning from its answer and turns
 * every reply shape an OpenAI-compatible server sends into an answer or a named failure. Everything downstream
 * (metrics, option and number extraction, judge verdicts, the identity guard, `/ask`) sees the answer only.
 *
 * Reasoning is recognised in three forms:
 * - **tags in the text**: `<think>…</think>` (DeepSeek-R1, QwQ, Qwen3), `<thinking>…</thinking>`,
 *   `<reasoning>…</reasoning>` and `<thought>…</thought>`, any case, anywhere in the text, as many blocks as there
 *   are. A closing tag with no opening tag before it (chat templates that put the opening `<think>` in the prompt)
 *   makes everything before it reasoning. An opening tag never closed (the token budget ran out while thinking) is
 *   the failure `reasoning_unclosed`, never an answer: the draft inside it would be scored;
 * - **a field of the message**: `reasoning_content` (DeepSeek, vLLM, SGLang) or `reasoning` (OpenRouter, Ollama);
 * - **content parts**: `content` as an array (Mistral's Magistral), whose `text` parts are the answer (joined) and
 *   whose `thinking` / `reasoning` parts are reasoning.
 *
 * Per model (config/models.yaml `reasoning`): `auto` (default) separates and keeps the reasoning to store;
 * `strip` separates and drops it; `keep` reads no tags (the text is the answer as sent; reasoning fields and
 * parts are still separated, as they are never part of the answer).
 *
 * Failures: `refused` (`message.refusal` or a refusal part), `tool_call` (the model called a tool instead of
 * answering), `http_error` (a 200 whose body is `{"error": …}`: the server's own message), `bad_response` (a
 * shape we do not read: no choices, a content that is neither text nor parts, an unknown part type; the shape is
 * named), `empty_reply` (no answer text).
 */

/** How a model's reasoning is treated (config/models.yaml `reasoning`). */
export type ReasoningMode = 'auto' | 'strip' | 'keep';

/** Reply-level failure codes this module gives (a subset of llm/types CompletionFailureCode). */
export type ReplyFailureCode =
  | 'refused'
  | 'tool_call'
  | 'http_error'
  | 'bad_response'
  | 'empty_reply'
  | 'reasoning_unclosed';

/** A reply read: the answer alone and the reasoning apart, or a named failure. */
export type ReadReply =
  | {
      readonly ok: true;
      /** The answer, reasoning removed, trimmed. Never empty. */
      readonly answer: string;
      /** The reasoning (blocks joined by a blank line); undefined when none, or when the mode is `strip`. */
      readonly reasoning?: string;
      /** `usage.completion_tokens_details.reasoning_tokens`, when the server gives it. */
      readonly reasoningTokens?: number;
    }
  | { readonly ok: false; readonly code: ReplyFailureCode; readonly message: string };

/** The reasoning tags recognised in text (lower case, without brackets). */
export const REASONING_TAGS = ['think', 'thinking', 'reasoning', 'thought'] as const;

const TAG = REASONING_TAGS.join('|');
const OPEN = new RegExp(`<(${TAG})>`, 'iu');
const BLOCK = new RegExp(`<(${TAG})>([\\s\\S]*?)</\\1>`, 'giu');
const CLOSE = new RegExp(`</(${TAG})>`, 'iu');

/** Text split by {@link splitReasoningText}. */
export type SplitText =
  | { readonly ok: true; readonly answer: string; readonly reasoning: readonly string[] }
  | { readonly ok: false; readonly tag: string };

/**
 * Splits text into answer and reasoning by the tags of {@link REASONING_TAGS}.
 * @returns the answer (trimmed) and the reasoning blocks in order, or `{ok: false, tag}` when a tag is opened and
 *   never closed.
 */
export function splitReasoningText(text: string): SplitText {
  const reasoning: string[] = [];
  let rest = text;
  // A leading closing tag with no opening before it: everything before it is reasoning.
  const close = CLOSE.exec(rest);
  if (close) {
    const open = OPEN.exec(rest);
    if (!open || open.index > close.index) {
      reasoning.push(rest.slice(0, close.index).trim());
      rest = rest.slice(close.index + close[0].length);
    }
  }
  rest = rest.replace(BLOCK, (_m, _tag: string, inner: string) => {
    reasoning.push(inner.trim());
    return '\n';
  });
  const unclosed = OPEN.exec(rest);
  if (unclosed) return { ok: false, tag: unclosed[1]?.toLowerCase() ?? 'think' };
  return { ok: true, answer: rest.trim(), reasoning: reasoning.filter((r) => r !== '') };
}

/** A short description of a value's shape, for failure messages (`array(3)`, `object{a,b}`, `number`). */
export function shapeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `array(${v.length})`;
  if (typeof v === 'object')
    return `object{${Object.keys(v as object)
      .slice(0, 8)
      .join(',')}}`;
  return typeof v;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text of a part's payload: a string, or an array of `{type:'text', text}` (Magistral's `thinking`). */
function partText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) {
    const texts = v.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : undefined));
    return texts.every((t) => t !== undefined) ? texts.join('') : undefined;
  }
  return undefined;
}

/** The models file named when a reply needs a setting changed, unless the caller names the one it read. */
const MODELS = 'config/models.yaml';

/**
 * Reads one chat-completions reply body (the parsed JSON, of any shape).
 * @param body what the endpoint answered with HTTP 200.
 * @param mode the model's `reasoning` mode.
 * @param at the models file the model is configured in, as the max_tokens advice names it (config/files.ts).
 * @returns the answer and its reasoning, or a failure naming the cause; never throws.
 */
export function readReply(body: unknown, mode: ReasoningMode = 'auto', at = MODELS): ReadReply {
  if (!isObj(body)) return bad(`the reply is ${shapeOf(body)}, not a chat completion object`);
  if (!Array.isArray(body.choices) || body.choices.length === 0) {
    if (body.error !== undefined) {
      const e = body.error;
      const msg = isObj(e) && typeof e.message === 'string' ? e.message : JSON.stringify(e);
      return {
        ok: false,
        code: 'http_error',
        message: `the endpoint answered HTTP 200 with an error: ${String(msg).slice(0, 300)}`,
      };
    }
    return bad(`the reply has no choices (${shapeOf(body)})`);
  }
  const choice = body.choices[0];
  if (!isObj(choice) || !isObj(choice.message))
    return bad(`choices[0] has no message (${shapeOf(choice)})`);
  const m = choice.message;
  const finish = typeof choice.finish_reason === 'string' ? choice.finish_reason : 'none';
  const reasoning: string[] = [];
  for (const field of ['reasoning_content', 'reasoning'] as const) {
    const r = partText(m[field]);
    if (r?.trim()) reasoning.push(r.trim());
  }
  const answerParts: string[] = [];
  const content = m.content;
  if (typeof content === 'string') answerParts.push(content);
  else if (Array.isArray(content)) {
    for (const [i, p] of content.entries()) {
      if (!isObj(p) || typeof p.type !== 'string')
        return bad(`content[${i}] is ${shapeOf(p)}, not a typed part`);
      if (p.type === 'text' && typeof p.text === 'string') answerParts.push(p.text);
      else if (p.type === 'thinking' || p.type === 'reasoning') {
        const t = partText(p.thinking ?? p.reasoning ?? p.text);
        if (t === undefined) return bad(`content[${i}] is a ${p.type} part of ${shapeOf(p)}`);
        if (t.trim()) reasoning.push(t.trim());
      } else if (p.type === 'refusal' && typeof p.refusal === 'string')
        return {
          ok: false,
          code: 'refused',
          message: `the model refused: ${p.refusal.slice(0, 300)}`,
        };
      else return bad(`content[${i}] is a part of type "${p.type}", which is not read`);
    }
  } else if (content !== null && content !== undefined)
    return bad(`message.content is ${shapeOf(content)}, neither text nor parts`);
  let answer = answerParts.join('');
  if (mode !== 'keep') {
    const split = splitReasoningText(answer);
    if (!split.ok)
      return {
        ok: false,
        code: 'reasoning_unclosed',
        message: `the reply ended inside <${split.tag}> (finish_reason ${finish}): the model ran out of tokens while reasoning; raise params.max_tokens of the model in ${at}`,
      };
    answer = split.answer;
    reasoning.push(...split.reasoning);
  } else answer = answer.trim();
  // A refusal or a tool call is the reply, whatever text comes with it (a preamble is no answer).
  if (typeof m.refusal === 'string' && m.refusal.trim())
    return {
      ok: false,
      code: 'refused',
      message: `the model refused: ${m.refusal.slice(0, 300)}`,
    };
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls : isObj(m.function_call) ? [m] : [];
  if (calls.length > 0) {
    const names = calls.map((c) => {
      const f = isObj(c) && isObj(c.function) ? c.function : isObj(c) ? c.function_call : undefined;
      return isObj(f) && typeof f.name === 'string' ? f.name : '?';
    });
    return {
      ok: false,
      code: 'tool_call',
      message: `the model called a tool (${names.join(', ')}) instead of answering; no tools are offered`,
    };
  }
  if (answer === '') {
    return {
      ok: false,
      code: 'empty_reply',
      message:
        reasoning.length > 0
          ? `the reply holds reasoning but no answer (finish_reason ${finish})`
          : `empty reply (finish_reason ${finish})`,
    };
  }
  const usage = isObj(body.usage) ? body.usage : undefined;
  const details =
    usage && isObj(usage.completion_tokens_details) ? usage.completion_tokens_details : undefined;
  const rt = details?.reasoning_tokens;
  return {
    ok: true,
    answer,
    ...(mode !== 'strip' && reasoning.length > 0 ? { reasoning: reasoning.join('\n\n') } : {}),
    ...(typeof rt === 'number' && Number.isFinite(rt) ? { reasoningTokens: rt } : {}),
  };
}

function bad(what: string): ReadReply {
  return { ok: false, code: 'bad_response', message: `unexpected reply shape: ${what}` };
}
