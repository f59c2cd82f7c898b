/**
 * anthropic/image-media-type: a base64 image is `image/jpeg`, `image/png`,
 * `image/gif` or `image/webp`, also inside a tool result (providers.md §3,
 * "Images"; SDK `Base64ImageSource.media_type`).
 */
import { defineRule } from '../rule.js';
import { imageMediaTypeCheck } from '../targets.js';

const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** The `anthropic/image-media-type` rule. */
export default defineRule({
  meta: {
    id: 'anthropic/image-media-type',
    description: 'An image that is not image/jpeg, image/png, image/gif or image/webp.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'anthropic',
    messages: {
      type: "image of type \"{mediaType}\"; Anthropic rejects it: \"media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'\"",
    },
  },
  check: imageMediaTypeCheck(ACCEPTED, { inResults: true }),
});
