/**
 * openai-chat/image-media-type: Chat Completions takes png, jpeg, gif and
 * webp images (providers.md §1, "Images").
 */
import { defineRule } from '../rule.js';
import { imageMediaTypeCheck } from '../targets.js';

// image/jpg is not registered, but OpenAI reads the bytes, not the label.
const ACCEPTED = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp']);

/** The `openai-chat/image-media-type` rule. */
export default defineRule({
  meta: {
    id: 'openai-chat/image-media-type',
    description: 'An image that is not png, jpeg, gif or webp.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'openai-chat',
    messages: {
      type: "image of type \"{mediaType}\"; OpenAI rejects it: \"You uploaded an unsupported image. ... of one the following formats: ['png', 'jpeg', 'gif', 'webp'].\"",
    },
  },
  // Images inside tool results are tool-result-text-only's business.
  check: imageMediaTypeCheck(ACCEPTED, { inResults: false }),
});
