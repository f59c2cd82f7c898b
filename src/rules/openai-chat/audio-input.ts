/**
 * openai-chat/audio-input: audio in a user message becomes an `input_audio`
 * part, which only audio models take; gpt-5-mini rejected one (providers.md
 * §1, "Files / audio"; corpus record `direct-binary-audio-openai_chat`).
 * Whether it is accepted depends on the model, so this warns.
 */
import { defineRule } from '../rule.js';
import { mediaParts, mediaTypeOf } from '../targets.js';

/** The `openai-chat/audio-input` rule. */
export default defineRule({
  meta: {
    id: 'openai-chat/audio-input',
    description: 'Audio input, which only audio-capable Chat Completions models accept.',
    defaultSeverity: 'warn',
    fixable: false,
    target: 'openai-chat',
    messages: {
      audio:
        'audio input ("{mediaType}") is accepted only by audio models; others reject it: "Content blocks are expected to be either text or image_url type."',
    },
  },
  check(subject, ctx) {
    for (const ref of mediaParts(subject.messages, false)) {
      const mediaType = mediaTypeOf(ref.part);
      if (mediaType === undefined || !mediaType.startsWith('audio/')) continue;
      ctx.report({
        messageId: 'audio',
        data: { mediaType },
        messageIndex: ref.messageIndex,
        partIndex: ref.partIndex,
      });
    }
  },
});
