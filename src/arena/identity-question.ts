/**
 * @module arena/identity-question
 * Refuses `/ask` prompts that ask the models who they are (in English or Chinese): their answer would reveal the
 * model and spoil the anonymous vote (the identity guard would refuse the answers anyway, after two paid calls).
 * Pure. The answer to the asker explains why and says how to see the models (they are revealed when voting
 * closes).
 *
 * What counts (after NFKC, so full-width ？ and letters fold; case-insensitive): "who are you", "what are you",
 * "what's your name", "what model/LLM/AI are you", "which model/company … you", "who made/created/trained/built/
 * developed you", "are you ChatGPT/GPT/Claude/…", "introduce yourself", "your creator/developer"; 你是谁, 您是谁,
 * 你叫什么, 你的名字, 你是什么(模型|AI|…), 你是哪(个|家)…, 谁(开发|训练|创造|制造|做)了?你, 你是由谁, 你是…(开发|训练)的,
 * 自我介绍, 介绍一下你自己, 你是(ChatGPT|GPT|Claude|通义|文心|…)吗. Questions *about* models in general ("who made
 * GPT-4?", "什么是大模型") are not refused.
 */
import { t } from '../i18n/index.ts';

const EN: readonly RegExp[] = [
  /\bwho\s+(are|r)\s+(you|u|ya)\b/u,
  /\bwhat\s+are\s+you\b(?!\s+(doing|going|saying|talking|thinking|trying|able|allowed|supposed))/u,
  /\bwhat(?:'s|’s|\s+is)\s+your\s+(name|model|identity|model\s+name|version)\b/u,
  /\bwhat\s+(model|llm|ai|language\s+model|version|company|system)\s+(are|is)\s+(you|this)\b/u,
  /\bwhich\s+(model|llm|ai|company|version|language\s+model|assistant|chatbot|bot)\b[^?.!]{0,40}\b(you|yours)\b/u,
  /\bwho\s+(made|created|trained|built|developed|owns|designed|programmed)\s+you\b/u,
  /\bare\s+you\s+(an?\s+)?(chatgpt|gpt|claude|gemini|bard|llama|qwen|mistral|ernie|glm|chatglm|kimi|deepseek|openai|anthropic|google|meta)\b/u,
  /\bintroduce\s+yourself\b/u,
  /\byour\s+(creator|developer|maker|vendor|underlying\s+model)\b/u,
  /\btell\s+me\s+about\s+yourself\b/u,
];

const ZH: readonly RegExp[] = [
  /(你|您)(到底|究竟)?是谁/u,
  /(你|您)叫(什么|啥)/u,
  /(你|您)的名字/u,
  /(你|您)是(一个)?(什么|啥)(模型|大模型|语言模型|ai|人工智能|机器人|东西|版本)/u,
  /(你|您)是哪(个|家|一个|种)/u,
  /(你|您)是由?谁(开发|训练|创造|制造|研发|做|打造)/u,
  /谁(开发|训练|创造|制造|研发|做|打造)(了|的)?(你|您)/u,
  /(你|您)是.{0,10}(开发|训练|研发|打造)的/u,
  /自我介绍|介绍一下(你|您)自己|介绍(你|您)自己/u,
  /(你|您)是(不是)?(chatgpt|gpt|claude|gemini|llama|qwen|通义|千问|文心|一言|智谱|chatglm|kimi|deepseek|豆包|星火|百川|混元)/u,
  /(你|您)(基于|用的是|使用)(什么|哪个|哪种)(模型|大模型)/u,
];

/** Why a prompt was refused (the matched words, for logs). */
export interface IdentityQuestionHit {
  readonly language: 'en' | 'zh';
  readonly match: string;
}

/** The first sign that `prompt` asks the models who they are, or undefined. */
export function asksModelIdentity(prompt: string): IdentityQuestionHit | undefined {
  const text = prompt.normalize('NFKC').toLowerCase();
  for (const re of ZH) {
    const m = re.exec(text);
    if (m) return { language: 'zh', match: m[0] };
  }
  for (const re of EN) {
    const m = re.exec(text);
    if (m) return { language: 'en', match: m[0] };
  }
  return undefined;
}

/**
 * What the asker is told, in the catalogue's English (`ask.identity`, which says it in Chinese too: the prompt may
 * be in either language); arena/ask-policy gives it in the asker's language.
 */
export const IDENTITY_QUESTION_REFUSAL = t('en', 'ask.identity');
