/**
 * bedrock/s3-location: an image or document given by an S3 location works
 * only on some models (Claude rejected an S3 image, Nova an S3 document in a
 * tool result), so this warns (providers.md §5, "Images / documents";
 * corpus records `test_multimodal_tool_return_matrix[*uploaded_file*bedrock*]`).
 */
import { defineRule } from '../rule.js';
import { mediaParts } from '../targets.js';

/** The `bedrock/s3-location` rule. */
export default defineRule({
  meta: {
    id: 'bedrock/s3-location',
    description: 'An image or document given by an S3 location, which not every model accepts.',
    defaultSeverity: 'warn',
    fixable: false,
    target: 'bedrock',
    messages: {
      s3: '{kind} given by S3 location; some Bedrock models reject it: "This model doesn\'t support the s3Uri field."',
    },
  },
  check(subject, ctx) {
    for (const ref of mediaParts(subject.messages, true)) {
      const url = ref.part.url;
      if (typeof url !== 'string' || !/^\s*s3:/i.test(url)) continue;
      ctx.report({
        messageId: 's3',
        data: { kind: ref.kind },
        messageIndex: ref.messageIndex,
        partIndex: ref.partIndex,
        path: [...ref.path, 'url'],
      });
    }
  },
});
