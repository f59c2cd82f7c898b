/**
 * openai-responses/image-media-type: the Responses API takes jpeg, png, gif
 * and webp images, also inside function call outputs (providers.md §2,
 * "Images / files").
 */
import { defineRule } from '../rule.js';
import { imageMediaTypeCheck } from '../targets.js';

// image/jpg is not registered, but OpenAI reads the bytes, not the label.
const ACCEPTED = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp']);

/** The `openai-responses/image-media-type` rule. */
export default defineRule({
  meta: {
    id: 'openai-responses/image-media-type',
    description: 'An image that is not jpeg, png, gif or webp.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'openai-responses',
    messages: {
      type: 'image of type "{mediaType}"; the Responses API takes jpeg, png, gif and webp and rejects it: "Expected a base64-encoded data URL with an image MIME type ... but got unsupported MIME type \'{mediaType}\'."',
    },
  },
  check: imageMediaTypeCheck(ACCEPTED, { inResults: true }),
});
