/**
 * openai-chat/tool-result-text-only: a `tool` message carries text only; an
 * image or file returned by a tool must travel in a user message instead
 * (providers.md §1, "Tool message content"; SDK `ChatCompletionToolMessageParam`).
 * An image there is refused with "Image URLs are only allowed for messages
 * with role 'user'" (OpenHands/OpenHands#7700); a file with the content-block
 * error of the corpus record `direct-binary-audio-openai_chat`.
 */
import { defineRule } from '../rule.js';
import { mediaParts } from '../targets.js';

/** The `openai-chat/tool-result-text-only` rule. */
export default defineRule({
  meta: {
    id: 'openai-chat/tool-result-text-only',
    description: 'An image or document inside a tool result; Chat tool messages take text only.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'openai-chat',
    messages: {
      image:
        "image in a tool result; Chat Completions tool messages take text only, and OpenAI rejects it: \"Image URLs are only allowed for messages with role 'user', but this message with role 'tool' contains an image URL.\"",
      document:
        'document in a tool result; Chat Completions tool messages take text only, and OpenAI rejects it: "Content blocks are expected to be either text or image_url type."',
    },
  },
  check(subject, ctx) {
    for (const ref of mediaParts(subject.messages, true)) {
      if (ref.path.length === 0) continue;
      ctx.report({
        messageId: ref.kind,
        messageIndex: ref.messageIndex,
        partIndex: ref.partIndex,
        path: ref.path,
      });
    }
  },
});
