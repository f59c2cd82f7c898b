/**
 * The conversation format, version 1 (SPEC §1), as zod schemas.
 * `schemas/conversation.v1.schema.json` is the same contract for other
 * tools; a test proves the two agree.
 */
import { z } from 'zod';
import { PART_TYPES, ROLES } from './types.js';

const isKnownType = (t: string): boolean => (PART_TYPES as readonly string[]).includes(t);

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** `image`/`document`: exactly one of `url` or `data`; `data` needs `mediaType`. */
function mediaRefine(requireMediaType: boolean) {
  return (part: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    const url = hasOwn(part, 'url');
    const data = hasOwn(part, 'data');
    if (url === data) {
      ctx.addIssue({ code: 'custom', message: 'exactly one of url or data is required' });
    }
    if ((requireMediaType || data) && !hasOwn(part, 'mediaType')) {
      ctx.addIssue({ code: 'custom', message: 'mediaType is required', path: ['mediaType'] });
    }
  };
}

/** zod schema of a `text` part. */
export const TextPartSchema = z.looseObject({ type: z.literal('text'), text: z.string() });

/** zod schema of an `image` part. */
export const ImagePartSchema = z
  .looseObject({
    type: z.literal('image'),
    url: z.string().optional(),
    data: z.string().optional(),
    mediaType: z.string().optional(),
  })
  .superRefine(mediaRefine(false));

/** zod schema of a `document` part. */
export const DocumentPartSchema = z
  .looseObject({
    type: z.literal('document'),
    url: z.string().optional(),
    data: z.string().optional(),
    mediaType: z.string().optional(),
    name: z.string().optional(),
  })
  .superRefine(mediaRefine(true));

/** A part whose `type` is not a version 1 type: not a schema error (lint's `unknown-part-type` reports it). */
export const UnknownPartSchema = z.looseObject({
  type: z.string().refine((t) => !isKnownType(t), { message: 'known part type' }),
});

/** zod schema of a part inside a tool result's `content`. */
export const ContentPartSchema = z.union([
  TextPartSchema,
  ImagePartSchema,
  DocumentPartSchema,
  UnknownPartSchema,
]);

/** zod schema of a `tool-call` part. */
export const ToolCallPartSchema = z.looseObject({
  type: z.literal('tool-call'),
  id: z.string().optional(),
  name: z.string(),
  arguments: z.string(),
});

/** zod schema of a `tool-result` part. */
export const ToolResultPartSchema = z.looseObject({
  type: z.literal('tool-result'),
  callId: z.string().optional(),
  name: z.string().optional(),
  content: z.array(ContentPartSchema),
  failed: z.boolean().optional(),
});

/** zod schema of a `reasoning` part. */
export const ReasoningPartSchema = z.looseObject({
  type: z.literal('reasoning'),
  text: z.string(),
  signature: z.string().optional(),
  redacted: z.string().optional(),
});

/** zod schema of any part. */
export const PartSchema = z.union([
  TextPartSchema,
  ImagePartSchema,
  DocumentPartSchema,
  ToolCallPartSchema,
  ToolResultPartSchema,
  ReasoningPartSchema,
  UnknownPartSchema,
]);

/** zod schema of a message. */
export const MessageSchema = z.looseObject({
  role: z.enum(ROLES),
  parts: z.array(PartSchema),
  runId: z.string().optional(),
  conversationId: z.string().optional(),
  name: z.string().optional(),
});

/** zod schema of the version 1 envelope. */
export const EnvelopeSchema = z.looseObject({
  version: z.literal(1),
  messages: z.array(MessageSchema),
});

/** zod schema of a stored conversation: the envelope or a bare array of messages. */
export const ConversationSchema = z.union([EnvelopeSchema, z.array(MessageSchema)]);

/** A `text` part. */
export type TextPart = z.infer<typeof TextPartSchema>;
/** An `image` part. */
export type ImagePart = z.infer<typeof ImagePartSchema>;
/** A `document` part. */
export type DocumentPart = z.infer<typeof DocumentPartSchema>;
/** A `tool-call` part. */
export type ToolCallPart = z.infer<typeof ToolCallPartSchema>;
/** A `tool-result` part. */
export type ToolResultPart = z.infer<typeof ToolResultPartSchema>;
/** A `reasoning` part. */
export type ReasoningPart = z.infer<typeof ReasoningPartSchema>;
/** A schema-valid message. */
export type MessageV1 = z.infer<typeof MessageSchema>;
/** A schema-valid stored conversation. */
export type ConversationV1 = z.infer<typeof ConversationSchema>;
