/**
 * openai-responses/file-media-type: a document becomes an `input_file`, and
 * the Responses API takes documents, text and code, presentations and
 * spreadsheets there, not audio or video (providers.md §2, "Arguments" and
 * "Images / files"; OpenAI's file inputs guide). Corpus records
 * `direct-url_force_download-audio-openai_responses` and
 * `tool_return_content-url_force_download-audio-openai_responses` were
 * rejected for an `audio/mpeg` file, `direct-url-audio-openai_responses`
 * for an `.mp3` file URL. Only types the API is known to refuse are
 * reported: the accepted list is long and grows, and a URL read without a
 * type (`application/octet-stream`) says nothing about the file.
 */
import { defineRule } from '../rule.js';
import { mediaParts, mediaTypeOf, mediaTypePath } from '../targets.js';

/** Media types the Responses API refuses in `input_file`: audio and video. */
function refused(mediaType: string): boolean {
  return mediaType.startsWith('audio/') || mediaType.startsWith('video/');
}

/** The `openai-responses/file-media-type` rule. */
export default defineRule({
  meta: {
    id: 'openai-responses/file-media-type',
    description:
      'A document (input_file) of an audio or video type, which the Responses API refuses.',
    defaultSeverity: 'error',
    fixable: false,
    target: 'openai-responses',
    messages: {
      data: 'file of type "{mediaType}"; the Responses API takes documents, text and spreadsheets as input_file and rejects it: "Invalid file data: ... but got unsupported MIME type \'{mediaType}\'."',
      url: 'file URL of type "{mediaType}"; the Responses API takes documents, text and spreadsheets as input_file and rejects it: "The file type you uploaded is not supported."',
    },
  },
  check(subject, ctx) {
    for (const ref of mediaParts(subject.messages, true)) {
      if (ref.kind !== 'document') continue;
      const mediaType = mediaTypeOf(ref.part);
      if (mediaType === undefined || !refused(mediaType)) continue;
      const inline = typeof ref.part.data === 'string';
      ctx.report({
        messageId: inline ? 'data' : 'url',
        data: { mediaType },
        messageIndex: ref.messageIndex,
        partIndex: ref.partIndex,
        path: mediaTypePath(ref),
      });
    }
  },
});
