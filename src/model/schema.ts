/**
 * The conversation format, version 1 (SPEC §1), as zod schemas.
 * `schemas/conversation.v1.schema.json` is the same contract for other
 * tools; a test proves the two agree.
 *
 * zod is loaded, and the schemas built, on the first use of any of them: loading zod costs more
 * than the rest of the library's history operations (about 12 MB and tens of ms at start-up), and
 * `import { sanitizeHistory } from 'histlint'` must not pay for it (a serverless cold start). An ES module cannot
 * be imported synchronously, but each schema is a value, so each export is a stand-in that builds
 * the schema and forwards every operation to it (`lazyObject`). zod itself comes through require()
 * of its ES module entry (Node ≥ 20.19, package.json `engines`): the same module instance that
 * `import 'zod'` gives the caller, so schemas compose with theirs.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as ZodModule from 'zod';
import type { z as Zod } from 'zod';
import { PART_TYPES, ROLES } from './types.js';

const isKnownType = (t: string): boolean => (PART_TYPES as readonly string[]).includes(t);

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** `image`/`document`: exactly one of `url` or `data`; `data` needs `mediaType`. */
function mediaRefine(requireMediaType: boolean) {
  return (part: Record<string, unknown>, ctx: Zod.RefinementCtx): void => {
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

/** Every schema of the format, built with `z`. */
function defineSchemas(z: typeof Zod) {
  const TextPartSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
  const ImagePartSchema = z
    .looseObject({
      type: z.literal('image'),
      url: z.string().optional(),
      data: z.string().optional(),
      mediaType: z.string().optional(),
    })
    .superRefine(mediaRefine(false));
  const DocumentPartSchema = z
    .looseObject({
      type: z.literal('document'),
      url: z.string().optional(),
      data: z.string().optional(),
      mediaType: z.string().optional(),
      name: z.string().optional(),
    })
    .superRefine(mediaRefine(true));
  const UnknownPartSchema = z.looseObject({
    type: z.string().refine((t) => !isKnownType(t), { message: 'known part type' }),
  });
  const ContentPartSchema = z.union([
    TextPartSchema,
    ImagePartSchema,
    DocumentPartSchema,
    UnknownPartSchema,
  ]);
  const ToolCallPartSchema = z.looseObject({
    type: z.literal('tool-call'),
    id: z.string().optional(),
    name: z.string(),
    arguments: z.string(),
  });
  const ToolResultPartSchema = z.looseObject({
    type: z.literal('tool-result'),
    callId: z.string().optional(),
    name: z.string().optional(),
    content: z.array(ContentPartSchema),
    failed: z.boolean().optional(),
  });
  const ReasoningPartSchema = z.looseObject({
    type: z.literal('reasoning'),
    text: z.string(),
    signature: z.string().optional(),
    redacted: z.string().optional(),
  });
  const PartSchema = z.union([
    TextPartSchema,
    ImagePartSchema,
    DocumentPartSchema,
    ToolCallPartSchema,
    ToolResultPartSchema,
    ReasoningPartSchema,
    UnknownPartSchema,
  ]);
  const MessageSchema = z.looseObject({
    role: z.enum(ROLES),
    parts: z.array(PartSchema),
    runId: z.string().optional(),
    conversationId: z.string().optional(),
    name: z.string().optional(),
  });
  const EnvelopeSchema = z.looseObject({
    version: z.literal(1),
    messages: z.array(MessageSchema),
  });
  const ConversationSchema = z.union([EnvelopeSchema, z.array(MessageSchema)]);
  return {
    TextPartSchema,
    ImagePartSchema,
    DocumentPartSchema,
    UnknownPartSchema,
    ContentPartSchema,
    ToolCallPartSchema,
    ToolResultPartSchema,
    ReasoningPartSchema,
    PartSchema,
    MessageSchema,
    EnvelopeSchema,
    ConversationSchema,
  };
}

type Schemas = ReturnType<typeof defineSchemas>;

let built: Schemas | undefined;

/** The schemas, built (and zod loaded) on the first call. */
function schemas(): Schemas {
  if (built === undefined) {
    const require = createRequire(import.meta.url);
    const zod = require(fileURLToPath(import.meta.resolve('zod'))) as typeof ZodModule;
    built = defineSchemas(zod.z);
  }
  return built;
}

/**
 * A stand-in for the object `build()` returns, built on first use: every operation on the
 * stand-in (property reads, `in`, `Object.keys`, `instanceof` through the prototype...) goes to
 * that object. zod's methods close over the schema they belong to, so they work called on the
 * stand-in, and a stand-in nested in another schema is read like the schema itself.
 */
function lazyObject<T extends object>(build: () => T): T {
  // A proxy may report a property non-configurable only if its target has it so: the target
  // (empty otherwise) takes a copy of each such property as it is reported.
  const target = {} as T;
  const pin = (key: string | symbol, desc: PropertyDescriptor | undefined) => {
    if (desc !== undefined && desc.configurable === false)
      Reflect.defineProperty(target, key, desc);
    return desc;
  };
  return new Proxy(target, {
    get: (_, key) => Reflect.get(build(), key),
    set: (_, key, value) => Reflect.set(build(), key, value),
    has: (_, key) => Reflect.has(build(), key),
    deleteProperty: (_, key) => Reflect.deleteProperty(build(), key),
    ownKeys: () => Reflect.ownKeys(build()),
    getOwnPropertyDescriptor: (_, key) => pin(key, Reflect.getOwnPropertyDescriptor(build(), key)),
    defineProperty: (_, key, desc) => {
      const defined = Reflect.defineProperty(build(), key, desc);
      if (defined) pin(key, Reflect.getOwnPropertyDescriptor(build(), key));
      return defined;
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(build()),
    setPrototypeOf: (_, proto) => Reflect.setPrototypeOf(build(), proto),
    // Frozen or sealed: the target becomes a full copy, as a non-extensible proxy target must be.
    preventExtensions: () => {
      const real = build();
      Reflect.preventExtensions(real);
      for (const key of Reflect.ownKeys(real)) {
        Reflect.defineProperty(target, key, Reflect.getOwnPropertyDescriptor(real, key)!);
      }
      Reflect.setPrototypeOf(target, Reflect.getPrototypeOf(real));
      return Reflect.preventExtensions(target);
    },
  });
}

/** The schema named `name`, as a stand-in built on first use. */
function lazySchema<K extends keyof Schemas>(name: K): Schemas[K] {
  return lazyObject(() => schemas()[name]);
}

/** zod schema of a `text` part. */
export const TextPartSchema = lazySchema('TextPartSchema');

/** zod schema of an `image` part. */
export const ImagePartSchema = lazySchema('ImagePartSchema');

/** zod schema of a `document` part. */
export const DocumentPartSchema = lazySchema('DocumentPartSchema');

/** A part whose `type` is not a version 1 type: not a schema error (lint's `unknown-part-type` reports it). */
export const UnknownPartSchema = lazySchema('UnknownPartSchema');

/** zod schema of a part inside a tool result's `content`. */
export const ContentPartSchema = lazySchema('ContentPartSchema');

/** zod schema of a `tool-call` part. */
export const ToolCallPartSchema = lazySchema('ToolCallPartSchema');

/** zod schema of a `tool-result` part. */
export const ToolResultPartSchema = lazySchema('ToolResultPartSchema');

/** zod schema of a `reasoning` part. */
export const ReasoningPartSchema = lazySchema('ReasoningPartSchema');

/** zod schema of any part. */
export const PartSchema = lazySchema('PartSchema');

/** zod schema of a message. */
export const MessageSchema = lazySchema('MessageSchema');

/** zod schema of the version 1 envelope. */
export const EnvelopeSchema = lazySchema('EnvelopeSchema');

/** zod schema of a stored conversation: the envelope or a bare array of messages. */
export const ConversationSchema = lazySchema('ConversationSchema');

/** A `text` part. */
export type TextPart = Zod.infer<Schemas['TextPartSchema']>;
/** An `image` part. */
export type ImagePart = Zod.infer<Schemas['ImagePartSchema']>;
/** A `document` part. */
export type DocumentPart = Zod.infer<Schemas['DocumentPartSchema']>;
/** A `tool-call` part. */
export type ToolCallPart = Zod.infer<Schemas['ToolCallPartSchema']>;
/** A `tool-result` part. */
export type ToolResultPart = Zod.infer<Schemas['ToolResultPartSchema']>;
/** A `reasoning` part. */
export type ReasoningPart = Zod.infer<Schemas['ReasoningPartSchema']>;
/** A schema-valid message. */
export type MessageV1 = Zod.infer<Schemas['MessageSchema']>;
/** A schema-valid stored conversation. */
export type ConversationV1 = Zod.infer<Schemas['ConversationSchema']>;
