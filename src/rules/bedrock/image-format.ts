/**
 * bedrock/image-format: a Converse image's `format` is gif, jpeg, png or webp,
 * also inside a tool result (providers.md §5, "Images / documents"; SDK
 * `ImageFormat`).
 */
import { defineRule } from '../rule.js';
import { imageMediaTypeCheck } from '../targets.js';

const ACCEPTED = new Set(['image/gif', 'image/jpeg', 'image/png', 'image/webp']);

/** The `bedrock/image-format` rule. */
export default defineRule({
  meta: {
    id: 'bedrock/image-format',
    description: 'An image that is not gif, jpeg, png or webp.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'bedrock',
    messages: {
      type: 'image of type "{mediaType}"; a Bedrock image format is gif, jpeg, png or webp, and Bedrock rejects others: "Value at ... image.format\' failed to satisfy constraint"',
    },
  },
  check: imageMediaTypeCheck(ACCEPTED, { inResults: true }),
});
